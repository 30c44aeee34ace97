package io.pmedia.engagement;

import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import jakarta.annotation.Priority;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;

import io.pmedia.storage.ObjectStore;
import io.pmedia.storage.StorageConfig;

/**
 * The real store (S3Proxy), whose reads and writes of the keys a test names can be held until it lets them go: a
 * store slower than the service's budget for them, without a mocking library. Lets everything through unless a test
 * holds something ({@link #hold}), and never holds a call longer than a minute. A singleton (a subclass of the store
 * has no constructor for a client proxy).
 */
@Alternative
@Priority(1)
@Singleton
public class HeldStore extends ObjectStore {

    private volatile Predicate<String> held = key -> false;
    private volatile CountDownLatch gate = new CountDownLatch(0);

    @Inject
    public HeldStore(StorageConfig config) {
        super(config);
    }

    /** Holds every read ({@link #text}) and write of bytes ({@link #put(String, byte[], String)}) of a key matching
     * {@code keys} until the returned handle is closed. */
    public AutoCloseable hold(Predicate<String> keys) {
        CountDownLatch latch = new CountDownLatch(1);
        gate = latch;
        held = keys;
        return () -> {
            held = key -> false;
            latch.countDown();
        };
    }

    private void pass(String key) {
        if (held.test(key)) {
            try {
                gate.await(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public Optional<String> text(String key, int limit) {
        pass(key);
        return super.text(key, limit);
    }

    @Override
    public void put(String key, byte[] content, String contentType) {
        pass(key);
        super.put(key, content, contentType);
    }
}
