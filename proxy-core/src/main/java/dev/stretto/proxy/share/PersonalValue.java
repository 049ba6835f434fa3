package dev.stretto.proxy.share;

/**
 * One personal value of a run: its kind and its normal form ({@link Values#normal}). The texts
 * it was written as are its literals; all of them get its one template.
 *
 * @param kind   what it is
 * @param normal what makes texts one value
 */
record PersonalValue(ValueKind kind, String normal) {
}
