package dev.stretto.proxy.share;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** What the detectors take for a personal value in free text, and what they leave. */
class DetectorsTest {

    private static final Detectors D = new Detectors(List.of());

    private static List<String> found(String text) {
        return D.find(text).stream().map(f -> f.kind().wireName() + ":" + text.substring(f.start(), f.end())).toList();
    }

    @Test
    void emailsAreFoundInsideSentencesAndNotPastTheirEnds() {
        assertEquals(List.of("email:ada.lovelace+mcp@Example.co.uk"),
                found("Write to <ada.lovelace+mcp@Example.co.uk>."));
        assertEquals(List.of("email:c1@example.com", "email:c2@example.com"), found("c1@example.com,c2@example.com"));
        assertEquals(List.of(), found("user@localhost or @handle or a@b"));
    }

    @Test
    void cardsAreLuhnValidNumbersWrittenAsCardsAre() {
        assertEquals(List.of("card:4111 1111 1111 1111"), found("card 4111 1111 1111 1111 exp 12/29"));
        assertEquals(List.of("card:4111-1111-1111-1111"), found("4111-1111-1111-1111"));
        assertEquals(List.of("card:4111111111111111"), found("pan=4111111111111111;"));
        assertEquals(List.of("card:3782 822463 10005"), found("amex 3782 822463 10005"));
        // Not Luhn-valid, and a 13-digit timestamp (which may pass Luhn) starting with 1.
        assertEquals(List.of(), found("4111 1111 1111 1112"));
        assertEquals(List.of(), found("started 1790561040548 ms"));
    }

    @Test
    void phonesNeedAPlusAnAreaCodeOrTheirGroups() {
        assertEquals(List.of("phone:+1 (215) 555-0142"), found("call +1 (215) 555-0142 today"));
        assertEquals(List.of("phone:(215) 555-0142"), found("call (215) 555-0142"));
        assertEquals(List.of("phone:215-555-0142"), found("215-555-0142"));
        assertEquals(List.of("phone:+442079460958"), found("+442079460958"));
        assertEquals(List.of("phone:01 23 45 67 89"), found("tel 01 23 45 67 89"));
        // Dates, times, amounts, versions and plain numbers stay.
        assertEquals(List.of(), found("2026-09-28 02:04:01, order 12345678, $1,234.56, v1.2.3, 8310926033"));
    }

    @Test
    void ibansAndIpAddressesAreCheckedNotJustMatched() {
        assertEquals(List.of("iban:DE89 3704 0044 0532 0130 00"), found("IBAN DE89 3704 0044 0532 0130 00."));
        assertEquals(List.of("iban:DE89370400440532013000"), found("DE89370400440532013000"));
        assertEquals(List.of(), found("DE88370400440532013000"));
        assertEquals(List.of("ip:203.0.113.7", "ip:2001:db8:85a3::8a2e:370:7334"),
                found("from 203.0.113.7 and 2001:db8:85a3::8a2e:370:7334"));
        assertEquals(List.of(), found("127.0.0.1, ::1, 0.0.0.0, 999.1.1.1, std::vector, 12:30:45"));
    }

    @Test
    void streetAddressesAndSecretsByTheirForm() {
        assertEquals(List.of("address:145 Elm Street, Suite 641"), found("ship to 145 Elm Street, Suite 641, Dallas"));
        assertEquals(List.of("address:9 N Old Mill Rd."), found("at 9 N Old Mill Rd. now"));
        List<String> secrets = found("Authorization: Bearer abcdef0123456789 and ghp_" + "a".repeat(36)
                + " and https://bob:hunter22@db.example/x?access_token=tok123456");
        assertEquals(List.of("secret:abcdef0123456789", "secret:ghp_" + "a".repeat(36), "secret:hunter22",
                "secret:tok123456"), secrets);
    }

    @Test
    void aHugeTextCostsItsLengthWhateverItHolds() {
        // Long runs that nearly match: letters before no @, digits with single separators, dots.
        String text = "a".repeat(2_000_000) + " " + "1 ".repeat(500_000) + ".".repeat(500_000) + "x@example.com";
        List<Detectors.Found> f = D.find(text);
        assertEquals(1, f.size());
        assertTrue(f.getFirst().kind() == ValueKind.EMAIL);
    }
}
