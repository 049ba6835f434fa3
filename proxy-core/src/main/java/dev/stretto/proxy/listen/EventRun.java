package dev.stretto.proxy.listen;

/**
 * The events one stream still keeps, in order of their numbers, which follow each other
 * without gaps: added at the end, dropped from the front, found by number.
 */
final class EventRun {
    private Outbox.Event[] items = new Outbox.Event[16];
    private int head;
    private int size;

    void add(Outbox.Event event) {
        if (size == items.length) {
            Outbox.Event[] grown = new Outbox.Event[items.length * 2];
            for (int i = 0; i < size; i++) {
                grown[i] = items[(head + i) % items.length];
            }
            items = grown;
            head = 0;
        }
        items[(head + size) % items.length] = event;
        size++;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** The oldest event kept, or null. */
    Outbox.Event first() {
        return size == 0 ? null : items[head];
    }

    Outbox.Event removeFirst() {
        Outbox.Event first = items[head];
        items[head] = null;
        head = (head + 1) % items.length;
        size--;
        return first;
    }

    /** The first event kept whose number is above {@code seq}, or null. */
    Outbox.Event after(long seq) {
        if (size == 0) {
            return null;
        }
        long index = Math.max(0, seq + 1 - items[head].seq);
        return index >= size ? null : items[(int) ((head + index) % items.length)];
    }
}
