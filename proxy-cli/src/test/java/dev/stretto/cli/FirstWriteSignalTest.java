package dev.stretto.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class FirstWriteSignalTest {

    @Test
    void everyByteGoesThroughAsItIsAndTheFirstWriteCountsTheLatchDown() throws IOException {
        ByteArrayOutputStream host = new ByteArrayOutputStream();
        CountDownLatch written = new CountDownLatch(1);
        OutputStream out = new FirstWriteSignal(host, written);
        out.flush();
        assertEquals(1, written.getCount(), "a flush writes nothing");

        byte[] line = "{\"id\":0,\"result\":{}}\n".getBytes(StandardCharsets.UTF_8);
        out.write(line, 0, line.length);
        assertEquals(0, written.getCount());
        assertArrayEquals(line, host.toByteArray());

        out.write('x');
        out.write(new byte[] {1, 2, 3}, 1, 2);
        assertEquals("{\"id\":0,\"result\":{}}\nx\u0002\u0003", host.toString(StandardCharsets.ISO_8859_1));
    }
}
