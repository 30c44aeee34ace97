package io.pmedia.common.outbox;

import java.util.List;

import io.smallrye.mutiny.Uni;

/**
 * Hands a batch of outbox messages to the broker. The item comes when the broker acknowledged every message, in
 * the order given per record key; a failure means any of them may or may not have arrived (they are sent again).
 */
public interface OutboxSender {

    Uni<Void> send(List<OutboxMessage> messages);
}
