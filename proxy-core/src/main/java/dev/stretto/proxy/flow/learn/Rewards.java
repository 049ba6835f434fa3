package dev.stretto.proxy.flow.learn;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.json.CanonicalJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * The {@code --rewards} file: a JSON object of rewards by session id
 * ({@code {"20260928T020400.548Z-14457": 1.0}}). A session without an entry gets 1.0; only
 * sessions whose reward is 1 train the habit.
 */
public final class Rewards {

    /** A reward this close to 1 counts as success. */
    static final double SUCCESS = 1.0 - 1e-9;

    private Rewards() {
    }

    /**
     * Reads the file.
     *
     * @throws IOException if it cannot be read or is not an object of numbers (the message
     *                     names the file and what is wrong)
     */
    public static Map<String, Double> read(Path file) throws IOException {
        String text = Files.readString(file, StandardCharsets.UTF_8);
        JsonNode root;
        try {
            root = CanonicalJson.parse(text);
        } catch (IllegalArgumentException e) {
            throw new IOException(file + ": not a rewards file (a JSON object of rewards by session id): "
                    + e.getMessage(), e);
        }
        if (!root.isObject()) {
            throw new IOException(file + ": not a rewards file: expected a JSON object of rewards by session id");
        }
        Map<String, Double> rewards = new HashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isNumber()) {
                throw new IOException(file + ": the reward of session \"" + e.getKey() + "\" is not a number");
            }
            rewards.put(e.getKey(), e.getValue().doubleValue());
        }
        return rewards;
    }

    /** Whether a reward counts as success. */
    public static boolean success(double reward) {
        return reward >= SUCCESS;
    }
}
