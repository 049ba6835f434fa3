/**
 * The flow model: records for every field of a {@code *.flow.json} file (formats 1 and 2),
 * with the arithmetic that belongs to the data (the habit's and reach's predictions, required
 * arguments, usable sources). Maps are held sorted in the order the file writes them, so a
 * flow read and written back is the same bytes. Reading and writing files is
 * {@link dev.stretto.proxy.flow.file.FlowFile}.
 */
package dev.stretto.proxy.flow.model;
