package io.pmedia.notifier.repository;

import java.util.UUID;

import io.pmedia.notifier.DeliveryKind;
import io.pmedia.notifier.DeliveryStatus;

/**
 * A pending delivery this replica holds the lease on, with what it takes to attempt it.
 *
 * @param attempts attempts made before this one
 * @param leaseOwner the claim's token: every write-back is conditional on it, so a replica whose lease ran out
 *        can never overwrite the work of the replica that took over
 * @param leaseExpiresAtNanos local {@link System#nanoTime()} at which the lease runs out (approximately)
 * @param traceParent the trace context of the event the delivery was made for, null when none
 * @param recoverFrom what a recovered delivery was before ({@code FAILED} or {@code EXHAUSTED}): it gets one attempt,
 *        and goes back to that if it fails; null for a delivery on its schedule
 */
public record Claim(String webhookId, UUID eventId, UUID clientId, DeliveryKind kind, String payload, int attempts,
        UUID leaseOwner, long leaseExpiresAtNanos, String traceParent, DeliveryStatus recoverFrom) {

    public Claim withLease(long expiresAtNanos) {
        return new Claim(webhookId, eventId, clientId, kind, payload, attempts, leaseOwner, expiresAtNanos,
                traceParent, recoverFrom);
    }
}
