package dev.stretto.proxy.share;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * Which JSON keys say that their values are personal, and of which kind. A key is compared
 * without case and without its separators ({@code firstName}, {@code first_name} and {@code
 * First-Name} are one key), and a plural names what its singular does ({@code emails}). A bare
 * {@code name} is a person's name only in a person's record: an object that also has another
 * personal key, or one under a key such as {@code user}, {@code customer} or {@code
 * passenger}; a product's name stays.
 */
final class PersonalKeys {

    private static final Map<String, ValueKind> TABLE = new HashMap<>();

    static {
        put(ValueKind.EMAIL, "email", "emailaddress", "mail", "contactemail", "useremail", "customeremail",
                "billingemail", "workemail", "personalemail");
        put(ValueKind.PHONE, "phone", "phonenumber", "mobile", "mobilenumber", "mobilephone", "cell", "cellphone",
                "cellnumber", "telephone", "tel", "telnumber", "fax", "contactphone", "homephone", "workphone");
        put(ValueKind.ADDRESS, "address", "address1", "address2", "address3", "addressline", "addressline1",
                "addressline2", "streetaddress", "street", "street1", "street2", "billingaddress", "shippingaddress",
                "homeaddress", "mailingaddress", "residentialaddress");
        put(ValueKind.ZIP, "zip", "zipcode", "postalcode", "postcode", "postal", "plz");
        put(ValueKind.DATE, "dob", "dateofbirth", "birthdate", "birthday", "bornon");
        put(ValueKind.CARD, "cardnumber", "ccnumber", "creditcard", "creditcardnumber", "debitcardnumber", "pan",
                "cardno", "ccn");
        put(ValueKind.IBAN, "iban");
        put(ValueKind.IP, "ip", "ipaddress", "clientip", "remoteip", "remoteaddr", "remoteaddress", "sourceip", "userip");
        put(ValueKind.NAME, "firstname", "lastname", "fullname", "givenname", "familyname", "surname", "middlename",
                "maidenname", "nickname", "customername", "contactname", "passengername", "cardholder",
                "cardholdername", "nameoncard", "holdername", "accountholder", "recipientname", "sendername",
                "patientname", "employeename", "personname", "guestname", "billingname", "shippingname", "ownername",
                "authorname", "travelername", "membername", "username_full");
        put(ValueKind.ID, "userid", "customerid", "accountid", "memberid", "patientid", "personid", "employeeid",
                "contactid", "clientid", "guestid", "travelerid", "passengerid", "passport", "passportnumber",
                "passportno", "ssn", "socialsecuritynumber", "nationalid", "taxid", "driverslicense", "driverlicense",
                "driverslicence", "licensenumber", "licencenumber", "paymentmethodid", "paymentid", "username",
                "login", "userhandle", "handle", "accountnumber", "bankaccount", "routingnumber", "sortcode",
                "loyaltynumber", "membershipnumber", "memberno", "frequentflyer", "frequentflyernumber", "lastfour",
                "last4", "cardlast4", "hostsession");
    }

    /** Keys of a person's record: a {@code name} in an object under one of them is a person's. */
    private static final Set<String> PERSONS = Set.of("user", "users", "customer", "customers", "passenger",
            "passengers", "contact", "contacts", "person", "people", "persons", "patient", "patients", "member",
            "members", "employee", "employees", "owner", "author", "authors", "sender", "recipient", "recipients",
            "guest", "guests", "traveler", "travelers", "traveller", "travellers", "cardholder", "buyer", "seller",
            "client", "clients", "profile", "holder", "attendee", "attendees", "student", "students",
            "participants", "participant");

    /** The parts of a name written as an object ({@code "name": {"first": ..., "last": ...}}). */
    private static final Set<String> NAME_PARTS = Set.of("first", "last", "given", "family", "middle", "full");

    /** The parts of an address object that say too little about a person to be replaced. */
    private static final Set<String> REGIONS = Set.of("city", "town", "state", "province", "region", "country",
            "countrycode", "county", "district", "type", "kind");

    /** Keys whose object's member names are ids ({@code "payment_methods": {"credit_card_4196779": ...}}). */
    private static final Set<String> MEMBERS_ARE_IDS = Set.of("paymentmethods", "cards", "accounts");

    private final Map<String, ValueKind> extra;

    /** @param extra keys of a rules file, already normal ({@link #normal}), and their kinds */
    PersonalKeys(Map<String, ValueKind> extra) {
        this.extra = Map.copyOf(extra);
    }

    private static void put(ValueKind kind, String... keys) {
        for (String k : keys) {
            TABLE.put(k, kind);
        }
    }

    /** A key as compared: lower case, letters and digits only. */
    static String normal(String key) {
        if (key == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(key.length());
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (Character.isLetterOrDigit(c)) {
                out.append(Character.toLowerCase(c));
            }
        }
        return out.toString();
    }

    /**
     * The kind of the values under {@code key}, or null when the key says nothing.
     *
     * @param key       the value's key (for an array's element, the array's)
     * @param parentKey the key of the object holding {@code key}, or null
     * @param holder    the object holding {@code key}, or null
     */
    ValueKind kindOf(String key, String parentKey, JsonNode holder) {
        String k = normal(key);
        if (k.isEmpty()) {
            return null;
        }
        ValueKind byTable = lookUp(k);
        if (byTable != null) {
            return byTable;
        }
        if (SecretRules.namesSecret(key)) {
            return ValueKind.SECRET;
        }
        String parent = normal(parentKey);
        if (k.equals("name") && (PERSONS.contains(parent) || hasPersonalKey(holder))) {
            return ValueKind.NAME;
        }
        if (parent.equals("name") && NAME_PARTS.contains(k)) {
            return ValueKind.NAME;
        }
        if (lookUp(parent) == ValueKind.ADDRESS && !REGIONS.contains(k)) {
            return ValueKind.ADDRESS;
        }
        return null;
    }

    /** Whether the member names of an object under {@code key} are ids. */
    static boolean membersAreIds(String key) {
        return MEMBERS_ARE_IDS.contains(normal(key));
    }

    private ValueKind lookUp(String k) {
        ValueKind v = extra.get(k);
        if (v == null) {
            v = TABLE.get(k);
        }
        if (v == null && k.endsWith("es")) {
            v = extra.getOrDefault(k.substring(0, k.length() - 2), TABLE.get(k.substring(0, k.length() - 2)));
        }
        if (v == null && k.endsWith("s")) {
            v = extra.getOrDefault(k.substring(0, k.length() - 1), TABLE.get(k.substring(0, k.length() - 1)));
        }
        return v;
    }

    private boolean hasPersonalKey(JsonNode holder) {
        if (holder == null || !holder.isObject()) {
            return false;
        }
        for (Iterator<String> it = holder.fieldNames(); it.hasNext(); ) {
            String k = normal(it.next());
            if (!k.equals("name") && lookUp(k) != null && lookUp(k) != ValueKind.SECRET) {
                return true;
            }
        }
        return false;
    }
}
