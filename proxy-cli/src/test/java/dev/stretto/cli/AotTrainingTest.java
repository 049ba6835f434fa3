package dev.stretto.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class AotTrainingTest {

    @Test
    void theSessionsAreTheArgumentsBetweenTheSeparators() {
        assertEquals(List.of(List.of("--log-level", "off", "--", "cat"), List.of("--record", "logs", "--", "cat")),
                AotTraining.sessions(new String[]{"--log-level", "off", "--", "cat", "+++", "--record", "logs", "--",
                        "cat"}));
        assertEquals(List.of(List.of("--", "cat")), AotTraining.sessions(new String[]{"--", "cat"}));
    }
}
