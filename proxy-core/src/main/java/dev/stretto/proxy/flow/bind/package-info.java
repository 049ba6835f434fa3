/**
 * Binding a lookup's arguments (the rule learning and serving share):
 * {@link dev.stretto.proxy.flow.bind.Binder} copies values from earlier successful results
 * ({@link dev.stretto.proxy.flow.bind.BindingView}, {@link dev.stretto.proxy.flow.bind.JsonPaths}),
 * ranks the ones the customer mentioned first ({@link dev.stretto.proxy.flow.bind.Mentions}),
 * and gives the binding a chance from what training saw.
 */
package dev.stretto.proxy.flow.bind;
