package dev.stretto.proxy.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/** The eight-bytes-at-a-time search and count agree with a byte-by-byte look, at every offset and length. */
class NewlinesTest {

    private static int naiveFirst(byte[] b, int from, int to) {
        for (int i = from; i < to; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private static int naiveLast(byte[] b, int from, int to) {
        for (int i = to - 1; i >= from; i--) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    private static int naiveCount(byte[] b, int from, int to) {
        int n = 0;
        for (int i = from; i < to; i++) {
            n += b[i] == '\n' ? 1 : 0;
        }
        return n;
    }

    @Test
    void everyRangeOfBytesOfEveryKindIsSearchedAndCountedExactly() {
        Random random = new Random(7);
        for (int round = 0; round < 300; round++) {
            byte[] b = new byte[random.nextInt(100)];
            // Bytes next to '\n' in value (0x0B, 0x09, 0x8A) and carries between lanes (0xFF, 0x80).
            byte[] kinds = {'\n', 0x0B, 0x09, (byte) 0x8A, (byte) 0xFF, (byte) 0x80, 0, 'a', 0x7F};
            int density = 1 + random.nextInt(8);
            for (int i = 0; i < b.length; i++) {
                b[i] = random.nextInt(density) == 0 ? kinds[random.nextInt(kinds.length)] : (byte) random.nextInt(256);
            }
            for (int from = 0; from <= b.length; from++) {
                for (int to = from; to <= b.length; to += 1 + random.nextInt(3)) {
                    assertEquals(naiveFirst(b, from, to), Newlines.first(b, from, to), "first " + from + ".." + to);
                    assertEquals(naiveLast(b, from, to), Newlines.last(b, from, to), "last " + from + ".." + to);
                    assertEquals(naiveCount(b, from, to), Newlines.count(b, from, to), "count " + from + ".." + to);
                }
            }
        }
    }

    @Test
    void aCountOfManyNewlinesInARowDoesNotOverflowItsLanes() {
        byte[] all = new byte[100_003];
        java.util.Arrays.fill(all, (byte) '\n');
        assertEquals(all.length, Newlines.count(all, 0, all.length));
        assertEquals(all.length - 5, Newlines.count(all, 3, all.length - 2));
        assertEquals(all.length - 1, Newlines.last(all, 0, all.length));
    }
}
