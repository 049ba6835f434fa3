package dev.stretto.proxy.flow.bind;

/** What the customer had said about a binding's picked values; it selects the binding's chance. */
public enum Mention {
    /** The customer mentioned every picked value. */
    PICKED,
    /** A picked value was not mentioned, but the customer named another value at its sources. */
    OTHER,
    /**
     * A picked value was not mentioned, and an earlier lookup of another value of its list
     * returned a key the customer gave that the others' results lack: the record the customer
     * described was probably already found.
     */
    DESCRIBED,
    /** None of the above. */
    NONE
}
