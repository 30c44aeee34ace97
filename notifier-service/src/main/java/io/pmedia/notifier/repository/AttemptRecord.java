package io.pmedia.notifier.repository;

import java.time.Instant;

import io.pmedia.notifier.AttemptOutcome;
import io.pmedia.notifier.DeliveryAttempt.AttemptTrigger;

/** What is written for one attempt: when, where, why, and its outcome. */
public record AttemptRecord(AttemptTrigger trigger, String url, Instant attemptedAt, AttemptOutcome outcome) {
}
