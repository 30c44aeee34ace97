package io.pmedia.notifier;

/** Where a webhook delivery stands; the names are what the deliveries API shows and filters on. */
public enum DeliveryStatus {
    /** Waiting for its next attempt (the first one included) or being attempted now. */
    PENDING,
    /** An attempt was answered with a 2xx. */
    DELIVERED,
    /** Given up without exhausting the schedule: a final 4xx, 410 Gone, a refused address, a disabled endpoint. */
    FAILED,
    /** Every attempt of the retry schedule failed; the delivery went to the dead-letter topic. */
    EXHAUSTED,
    /** Nothing to send: the client has no webhook-url, or no longer exists. */
    SKIPPED;

    public boolean isFinal() {
        return this != PENDING;
    }
}
