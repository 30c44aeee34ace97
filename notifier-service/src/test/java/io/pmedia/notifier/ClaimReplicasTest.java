package io.pmedia.notifier;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import jakarta.inject.Inject;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.pmedia.notifier.messaging.MediaStatusConsumer;
import io.pmedia.notifier.repository.Claim;
import io.pmedia.notifier.repository.DeliveryStore;
import io.pmedia.notifier.service.DeliveryDispatcher;
import io.pmedia.testing.PostgresTestResource.TestDatabase;
import io.quarkus.test.junit.QuarkusTest;

/** Several replicas claiming due deliveries at the same time: each delivery goes to exactly one of them. */
@QuarkusTest
class ClaimReplicasTest {

    @Inject
    DeliveryStore store;

    @Inject
    DeliveryDispatcher dispatcher;

    @AfterEach
    void running() {
        dispatcher.start();
    }

    @Test
    void eachDueDeliveryIsClaimedByOneReplicaOnly() throws Exception {
        dispatcher.stop(); // this replica's own poll stays out of the race
        UUID client = UUID.randomUUID();
        Set<String> due = insertDue(client, 60);

        ExecutorService replicas = Executors.newFixedThreadPool(4);
        try {
            List<CompletableFuture<List<String>>> claimed = new ArrayList<>();
            for (int replica = 0; replica < 4; replica++) {
                claimed.add(CompletableFuture.supplyAsync(() -> {
                    List<String> mine = new ArrayList<>();
                    while (true) {
                        List<Claim> batch = store.claimDue(7, Duration.ofSeconds(30)).await()
                                .atMost(Duration.ofSeconds(10));
                        if (batch.isEmpty()) {
                            return mine;
                        }
                        batch.stream().map(Claim::webhookId).filter(due::contains).forEach(mine::add);
                    }
                }, replicas));
            }
            List<String> all = new ArrayList<>();
            for (CompletableFuture<List<String>> replica : claimed) {
                all.addAll(replica.get());
            }
            assertThat(all).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(due);
            assertThat(claimed).filteredOn(replica -> !replica.join().isEmpty()).hasSizeGreaterThan(1);
        } finally {
            replicas.shutdownNow();
        }
    }

    private static Set<String> insertDue(UUID client, int count) throws Exception {
        Set<String> ids = new java.util.HashSet<>();
        try (Connection db = TestDatabase.fromEnvironment().connect("pmedia_notifier_test");
                PreparedStatement insert = db.prepareStatement("INSERT INTO webhook_delivery (webhook_id, event_id,"
                        + " kind, client_id, payload, status, attempts, next_attempt_at) VALUES (?, ?, 'video.push',"
                        + " ?, '{}', 'PENDING', 1, now() - interval '1 second')")) {
            for (int i = 0; i < count; i++) {
                UUID eventId = UUID.randomUUID();
                String webhookId = MediaStatusConsumer.webhookId(eventId);
                insert.setString(1, webhookId);
                insert.setObject(2, eventId);
                insert.setObject(3, client);
                insert.addBatch();
                ids.add(webhookId);
            }
            insert.executeBatch();
        }
        return ids;
    }
}
