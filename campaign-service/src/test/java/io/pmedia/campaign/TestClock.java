package io.pmedia.campaign;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

import jakarta.inject.Singleton;

/**
 * The service's clock in tests: the system's, moved forward on demand, so a test can let hours pass at once
 * instead of waiting for a short window to go by.
 */
@Singleton
public class TestClock extends Clock {

    private volatile Duration offset = Duration.ZERO;

    /** Moves the service's time forward by {@code amount}, from now on. */
    public void advance(Duration amount) {
        offset = offset.plus(amount);
    }

    /** Back to the system's time. */
    public void reset() {
        offset = Duration.ZERO;
    }

    @Override
    public Instant instant() {
        return Instant.now().plus(offset);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("the service's clock is UTC");
    }
}
