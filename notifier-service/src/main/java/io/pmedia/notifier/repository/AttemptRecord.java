package io.pmedia.notifier.repository;

import java.time.Instant;

import io.pmedia.notifier.DeliveryAttempt.AttemptTrigger;
import io.pmedia.notifier.service.AttemptOutcome;

/** What is written for one attempt: when, where, why, and its outcome. */
public record AttemptRecord(AttemptTrigger trigger, String url, Instant attemptedAt, AttemptOutcome outcome) {
}
