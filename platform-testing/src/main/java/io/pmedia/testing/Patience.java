package io.pmedia.testing;

import java.net.SocketTimeoutException;
import java.time.Duration;

import org.awaitility.Awaitility;
import org.awaitility.core.ConditionFactory;

/**
 * How long a test waits for what it then asserts: one bound for the whole suite, sized for a loaded 2-core machine
 * ({@code -Dpmedia.test.patience=<seconds>}, default 120), with the condition polled every 50 ms, so a generous bound
 * costs nothing when things are quick. A test names a bound of its own only where the time is what it asserts (a
 * condition that must hold {@code during} a period, a deadline the product promises).
 */
public final class Patience {

    /** The suite's one bound. */
    public static final Duration BOUND = Duration.ofSeconds(Long.getLong("pmedia.test.patience", 120));
    private static final Duration POLL = Duration.ofMillis(50);

    private Patience() {
    }

    /**
     * An Awaitility condition with the suite's bound and poll interval. A read that timed out on a loaded machine is
     * one more poll, not a failure.
     */
    public static ConditionFactory await() {
        return Awaitility.await().atMost(BOUND).pollInterval(POLL).pollDelay(Duration.ZERO)
                .ignoreExceptionsInstanceOf(SocketTimeoutException.class);
    }

    /** The same, named in Awaitility's report. */
    public static ConditionFactory await(String alias) {
        return await().alias(alias);
    }
}
