package io.pmedia.common.concurrent;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.LongSupplier;

import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;

/**
 * Answers of a remote source kept per key for a while, where concurrent misses for one key share a single load: a
 * burst of requests for one client costs one call, not one call each. Only successful loads are kept; a failed
 * load is shared by the callers waiting for it and then forgotten, so the next caller tries again.
 *
 * <p>
 * Callers say how old an answer they accept ({@link #get}); {@link #lastLoaded} lets a caller fall back on an older
 * answer when a load fails (stale-if-error). At most {@code maxEntries} keys are kept: beyond that, answers older than
 * {@code keep} are dropped first.
 */
public final class SingleFlightCache<K, V> {

    private record Entry<V>(V value, long loadedAtNanos) {
    }

    private final Function<K, Uni<V>> loader;
    private final long keepNanos;
    private final int maxEntries;
    private final LongSupplier nanoTime;
    private final Map<K, Entry<V>> entries = new ConcurrentHashMap<>();
    private final Map<K, Uni<V>> inFlight = new ConcurrentHashMap<>();

    public SingleFlightCache(Function<K, Uni<V>> loader, Duration keep, int maxEntries) {
        this(loader, keep, maxEntries, System::nanoTime);
    }

    /** With a clock of its own, for tests. */
    public SingleFlightCache(Function<K, Uni<V>> loader, Duration keep, int maxEntries, LongSupplier nanoTime) {
        this.loader = loader;
        this.keepNanos = keep.toNanos();
        this.maxEntries = maxEntries;
        this.nanoTime = nanoTime;
    }

    /** The answer loaded less than {@code maxAge} ago, or the outcome of one load shared by every concurrent caller. */
    public Uni<V> get(K key, Duration maxAge) {
        V recent = lastLoaded(key, maxAge);
        if (recent != null) {
            return Uni.createFrom().item(recent);
        }
        Uni<V> shared = inFlight.computeIfAbsent(key, k -> load(k)
                .eventually(() -> {
                    inFlight.remove(k); // a block: the value-returning form would await the removed Uni
                })
                .memoize().indefinitely());
        return Uni.createFrom().deferred(() -> onCallersContext(shared));
    }

    /**
     * A shared load completes on the thread of whoever started it; each caller continues on its own Vert.x context,
     * where its request's state (security identity, Hibernate session) lives.
     */
    private static <T> Uni<T> onCallersContext(Uni<T> shared) {
        Context context = Vertx.currentContext();
        return context == null ? shared : shared.emitOn(task -> context.runOnContext(ignored -> task.run()));
    }

    /** Loads now, for a caller that must see a just-made change; the answer is kept for later callers too. */
    public Uni<V> refresh(K key) {
        return load(key);
    }

    /** The last answer loaded less than {@code maxAge} ago, or null; never calls the source. */
    public V lastLoaded(K key, Duration maxAge) {
        Entry<V> entry = entries.get(key);
        return entry != null && nanoTime.getAsLong() - entry.loadedAtNanos() < maxAge.toNanos() ? entry.value() : null;
    }

    private Uni<V> load(K key) {
        return Uni.createFrom().deferred(() -> loader.apply(key)).invoke(value -> keep(key, value));
    }

    private void keep(K key, V value) {
        if (value == null) {
            entries.remove(key);
            return;
        }
        long now = nanoTime.getAsLong();
        if (entries.size() >= maxEntries) {
            entries.values().removeIf(entry -> now - entry.loadedAtNanos() >= keepNanos);
            if (entries.size() >= maxEntries) {
                entries.clear();
            }
        }
        entries.put(key, new Entry<>(value, now));
    }
}
