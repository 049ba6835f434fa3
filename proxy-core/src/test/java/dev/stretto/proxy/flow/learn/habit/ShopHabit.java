package dev.stretto.proxy.flow.learn.habit;

import java.util.List;

/**
 * The six shop sessions of the reference's fixture as the habit sees them (vocab: 0 Respond,
 * 1 cancel_pending_order, 2 find_user_id_by_email, 3 get_order_details, 4 get_user_details;
 * vocab size 6), in session order: c1..c6.
 */
final class ShopHabit {

    static final int VOCAB_SIZE = 6;

    /** Find the user, read the user and both orders, ask, cancel one, confirm. */
    private static final EncodedEpisode CANCELS = new EncodedEpisode(
            new long[] {32768, 65536, 49152, 49152, 8192, 16384, 12288},
            new int[] {2, 4, 3, 3, 0, 1, 0}, 1.0);
    /** Find the user, read the user and both orders, tell. */
    private static final EncodedEpisode LOOKS = new EncodedEpisode(
            new long[] {32768, 65536, 49152, 49152, 12288},
            new int[] {2, 4, 3, 3, 0}, 1.0);

    static final List<EncodedEpisode> EPISODES = List.of(CANCELS, LOOKS, CANCELS, LOOKS, CANCELS, CANCELS);

    private ShopHabit() {
    }
}
