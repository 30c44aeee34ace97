package io.pmedia.campaign;

import static io.pmedia.campaign.ScheduleLifecycleTest.hoursFromNow;
import static io.pmedia.campaign.ScheduleLifecycleTest.schedule;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;

import jakarta.inject.Inject;

import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.pmedia.testing.KafkaEvents;
import io.pmedia.testing.Patience;
import io.pmedia.testing.PostgresTestResource.TestDatabase;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The transactional outbox (platform-common) as this service runs it: an event committed while Kafka is away waits
 * in the outbox and arrives, in order, once Kafka is back; and while the broker takes its time to acknowledge, the
 * relay holds no transaction and no lock in PostgreSQL.
 */
@QuarkusTest
class OutboxRelayTest {

    private static final String DATABASE = "pmedia_campaign_test";

    @Inject
    TestKafka kafka;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @AfterEach
    void kafkaIsBack() {
        kafka.bringBack();
        kafka.acknowledge();
    }

    @Test
    void eventsCommittedWhileKafkaIsDownWaitInTheOutboxAndArriveInOrderWhenItIsBack() throws Exception {
        UUID client = UUID.randomUUID();
        String key = client + "/outage";
        try (KafkaEvents events = KafkaEvents.of(bootstrap, "pmedia.campaign.status")) {
            kafka.takeDown();
            schedule(client, "outage", hoursFromNow(1), hoursFromNow(2)).statusCode(200);
            schedule(client, "outage", hoursFromNow(-1), hoursFromNow(2)).statusCode(200);

            Patience.await().until(() -> kafka.failedBatches() >= 1);
            assertThat(waiting(key)).isEqualTo(2);
            assertThat(events.withKey(key)).isEmpty();

            kafka.bringBack();
            Patience.await().untilAsserted(() -> assertThat(events.withKey(key).stream()
                    .map(event -> event.data().get("status").asText())).containsExactly("SCHEDULED", "ACTIVE"));
            Patience.await().until(() -> waiting(key) == 0);
        }
    }

    @Test
    void whileTheBrokerAcknowledgesTheRelayHoldsNoTransactionAndNoLock() throws Exception {
        UUID client = UUID.randomUUID();
        String key = client + "/slow-broker";
        try (KafkaEvents events = KafkaEvents.of(bootstrap, "pmedia.campaign.status")) {
            kafka.holdAcknowledgements();
            schedule(client, "slow-broker", hoursFromNow(1), hoursFromNow(2)).statusCode(200);
            Patience.await().until(() -> kafka.heldBatches() >= 1);
            assertThat(leaseHolder()).as("a relay is mid-batch").isNotNull();

            Patience.await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3))
                    .until(() -> openTransactions() == 0 && advisoryLocks() == 0);

            kafka.acknowledge();
            Patience.await().untilAsserted(() -> assertThat(events.withKey(key)).hasSize(1));
            Patience.await().until(() -> waiting(key) == 0 && leaseHolder() == null);
        }
    }

    /** Outbox rows of {@code key} not yet published. */
    private static int waiting(String key) throws SQLException {
        return count("SELECT count(*) FROM outbox_event WHERE record_key = ?", key);
    }

    private static UUID leaseHolder() throws SQLException {
        try (Connection db = TestDatabase.fromEnvironment().connect(DATABASE);
                ResultSet row = db.createStatement()
                        .executeQuery("SELECT holder FROM outbox_relay_lease WHERE name = 'relay'")) {
            return row.next() ? row.getObject(1, UUID.class) : null;
        }
    }

    /**
     * Sessions of the service sitting in a transaction without running a statement for more than half a second (a
     * transaction between two quick statements of a request is not what this looks for).
     */
    private static int openTransactions() throws SQLException {
        return count("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                + " AND pid <> pg_backend_pid() AND state LIKE 'idle in transaction%'"
                + " AND now() - state_change > interval '500 milliseconds'");
    }

    private static int advisoryLocks() throws SQLException {
        return count("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory'"
                + " AND database = (SELECT oid FROM pg_database WHERE datname = current_database())");
    }

    private static int count(String sql, Object... parameters) throws SQLException {
        try (Connection db = TestDatabase.fromEnvironment().connect(DATABASE);
                PreparedStatement query = db.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                query.setObject(i + 1, parameters[i]);
            }
            try (ResultSet row = query.executeQuery()) {
                row.next();
                return row.getInt(1);
            }
        }
    }
}
