package dev.stretto.proxy.share;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.Payload;
import java.time.LocalDate;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shapes of the kinds the invented customers do not show: dates in other formats, numbers, hex ids, IPs. */
class PseudonymShapesTest {

    private static JsonNode arguments(String argumentsJson) throws Exception {
        Logs logs = new Logs("20260101T000000.000Z-1").call("update", argumentsJson, "ok");
        RedactionResult r = RedactorTest.redactor().redactFiles(List.of(logs.file()));
        String json = ((Payload.Message) ((ShareFile.Session) r.files().getFirst().redacted()).log().entries().getFirst()
                .payload()).json();
        return CanonicalJson.parse(json).path("params").path("arguments");
    }

    @Test
    void oneDateInThreeFormatsIsOneOtherDateInTheSameThree() throws Exception {
        JsonNode a = arguments("{\"dob\":\"1987-04-12\",\"birth_date\":\"04/12/1987\",\"birthday\":\"12.04.1987\"}");
        LocalDate iso = LocalDate.parse(a.path("dob").textValue());
        assertNotEquals(LocalDate.of(1987, 4, 12), iso);
        assertEquals(String.format("%02d/%02d/%04d", iso.getMonthValue(), iso.getDayOfMonth(), iso.getYear()),
                a.path("birth_date").textValue());
        assertEquals(String.format("%02d.%02d.%04d", iso.getDayOfMonth(), iso.getMonthValue(), iso.getYear()),
                a.path("birthday").textValue());
    }

    @Test
    void numbersStayNumbersOfTheirLengthAndIdsTheirAlphabet() throws Exception {
        JsonNode a = arguments("{\"zip\":75201,\"customer_id\":\"9f86d081884c7d65\",\"account_id\":\"ACC-0042-XY\","
                + "\"ip\":\"203.0.113.7\",\"user_id\":4242}");
        assertTrue(a.path("zip").isInt() && String.valueOf(a.path("zip").intValue()).length() == 5, a.toString());
        assertNotEquals(75201, a.path("zip").intValue());
        assertTrue(a.path("customer_id").textValue().matches("[0-9a-f]{16}"), a.toString());
        assertTrue(a.path("account_id").textValue().matches("ACC-0\\d{3}-[A-Z]{2}"), a.toString());
        assertTrue(a.path("ip").textValue().matches("10\\.\\d+\\.\\d+\\.\\d+"), a.toString());
        assertTrue(a.path("user_id").isInt() && a.path("user_id").intValue() >= 1000 && a.path("user_id").intValue() != 4242);
    }
}
