package io.pmedia.notifier.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

class EndpointGateTest {

    private final AtomicLong clock = new AtomicLong();
    private final EndpointGate<String> gate = new EndpointGate<>(2, 2, 3, 1_000, clock::get);

    @Test
    void limitsConcurrencyQueuesBehindAndOverflowsBeyondTheQueue() {
        assertThat(gate.admit("a").run()).containsExactly("a");
        assertThat(gate.admit("b").run()).containsExactly("b");
        assertThat(gate.admit("c").run()).isEmpty();
        assertThat(gate.admit("d").run()).isEmpty();
        assertThat(gate.admit("e").overflow()).containsExactly("e");
        assertThat(gate.queued()).isEqualTo(2);

        assertThat(gate.complete(true).run()).containsExactly("c");
        assertThat(gate.complete(true).run()).containsExactly("d");
        assertThat(gate.inFlight()).isEqualTo(2);
    }

    @Test
    void opensAfterConsecutiveFailuresRejectsWhileOpenThenProbesOnce() {
        gate.admit("a");
        gate.admit("b");
        gate.admit("c");
        gate.admit("d");
        gate.complete(false); // a fails, c starts
        gate.complete(false); // b fails, d starts
        EndpointGate.Decision<String> third = gate.complete(false);
        assertThat(gate.open()).isTrue();
        assertThat(third.run()).isEmpty();
        assertThat(gate.admit("e").reject()).containsExactly("e");

        gate.complete(false); // d, started before the breaker opened, fails too
        clock.addAndGet(1_000);
        assertThat(gate.admit("probe").run()).containsExactly("probe");
        assertThat(gate.admit("waits").run()).isEmpty();
        assertThat(gate.queued()).isEqualTo(1);

        assertThat(gate.complete(true).run()).containsExactly("waits");
        assertThat(gate.open()).isFalse();
        assertThat(gate.consecutiveFailures()).isZero();
    }

    @Test
    void aFailedProbeOpensAgainAndFailsWhatWaited() {
        for (String item : new String[]{"a", "b", "c"}) {
            gate.admit(item);
        }
        gate.complete(false);
        gate.complete(false);
        gate.complete(false);
        clock.addAndGet(1_000);
        gate.admit("probe");
        gate.admit("waits");

        EndpointGate.Decision<String> failed = gate.complete(false);

        assertThat(gate.open()).isTrue();
        assertThat(failed.reject()).containsExactly("waits");
    }

    @Test
    void aSuccessInBetweenResetsTheCount() {
        gate.admit("a");
        gate.admit("b");
        gate.complete(false);
        gate.complete(false);
        gate.admit("c");
        gate.complete(true);
        gate.admit("d");
        gate.complete(false);
        assertThat(gate.open()).isFalse();
        assertThat(gate.consecutiveFailures()).isEqualTo(1);
    }
}
