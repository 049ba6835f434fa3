package dev.stretto.trace.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The check reads strings eight bytes at a time where it can; fed a byte at a time it never
 * can. Both must decide every line alike, wherever its special bytes fall.
 */
class MessageCheckTest {

    private static final String[] PIECES = {"a", "plain text ", "0123456789", "\"", "\\\"", "\\\\", "\\n", "\\u00e9",
        "\\ud83d\\ude00", "\\ud83d", "\\x", "\u00e9", "\u2713", "\ud83d\ude00", "\t", "\u0001", "\u007f", " "};

    private static byte[] randomLine(Random random) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes("{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"text\":\"".getBytes(StandardCharsets.UTF_8));
        int n = random.nextInt(60);
        for (int i = 0; i < n; i++) {
            int pick = random.nextInt(PIECES.length + 3);
            if (pick < PIECES.length) {
                out.writeBytes(PIECES[pick].getBytes(StandardCharsets.UTF_8));
            } else if (pick == PIECES.length) {
                out.write(0x80 + random.nextInt(0x80)); // a byte no UTF-8 sequence starts with
            } else {
                out.writeBytes("x".repeat(random.nextInt(20)).getBytes(StandardCharsets.UTF_8));
            }
        }
        out.writeBytes("\",\"n\":[1,2.5e3,true]}}".getBytes(StandardCharsets.UTF_8));
        if (random.nextInt(10) == 0) {
            out.writeBytes(" \r".getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }

    private static String decide(byte[] line, int[] pieces) {
        MessageCheck check = new MessageCheck();
        int at = 0;
        for (int p : pieces) {
            check.update(line, at, p);
            at += p;
        }
        check.update(line, at, line.length - at);
        return check.isMessage() ? "message " + check.messageStart() + ".." + check.messageEnd() : "raw";
    }

    @Test
    void linesReadWholeAndLinesReadAByteAtATimeAreDecidedAlike() {
        Random random = new Random(25);
        int messages = 0;
        for (int round = 0; round < 20_000; round++) {
            byte[] line = randomLine(random);
            int[] bytewise = new int[line.length];
            java.util.Arrays.fill(bytewise, 1);
            int[] some = new int[random.nextInt(4)];
            int left = line.length;
            for (int i = 0; i < some.length; i++) {
                some[i] = random.nextInt(left + 1);
                left -= some[i];
            }
            String whole = decide(line, new int[0]);
            assertEquals(decide(line, bytewise), whole, new String(line, StandardCharsets.UTF_8));
            assertEquals(decide(line, some), whole, new String(line, StandardCharsets.UTF_8));
            messages += whole.startsWith("message") ? 1 : 0;
        }
        assertTrue(messages > 1000 && messages < 19_000, "both kinds of line were met: " + messages + " messages");
    }

    @Test
    void aSpecialByteAtEachPlaceOfAWordEndsItsPlainRun() {
        for (int at = 0; at < 16; at++) {
            for (String special : new String[]{"\"", "\u0001", "\u00e9", "\\n"}) {
                String text = "y".repeat(at) + special + "z".repeat(17);
                String json = "{\"t\":\"" + text + "\"}";
                MessageCheck check = new MessageCheck();
                byte[] b = json.getBytes(StandardCharsets.UTF_8);
                check.update(b, 0, b.length);
                boolean expected = !special.equals("\"") && !special.equals("\u0001");
                assertEquals(expected, check.isMessage(), json);
            }
        }
        MessageCheck check = new MessageCheck();
        byte[] b = "\"abcdefghijklmnop".getBytes(StandardCharsets.UTF_8);
        check.update(b, 0, b.length);
        assertFalse(check.isMessage(), "an unterminated string");
    }
}
