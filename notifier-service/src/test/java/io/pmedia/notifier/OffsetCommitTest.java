package io.pmedia.notifier;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import io.pmedia.testing.GatewayStub;
import io.pmedia.testing.GatewayStub.Secret;
import io.pmedia.testing.Patience;
import io.pmedia.testing.PostgresTestResource.TestDatabase;
import io.quarkus.test.junit.QuarkusTest;

/** The consumer's offset never runs ahead of PostgreSQL: a record is committed only once its delivery row is. */
@QuarkusTest
class OffsetCommitTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void theOffsetIsCommittedOnlyAfterTheDeliveryRowIs() throws Exception {
        UUID client = UUID.randomUUID();
        try (StatusEvents events = new StatusEvents(bootstrap);
                TestReceiver receiver = TestReceiver.accepting();
                Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
                Connection db = TestDatabase.fromEnvironment().connect("pmedia_notifier_test")) {
            GatewayStub.register(client, receiver.url(), Secret.current(Secrets.newSecret()));
            StatusEvents.Event event = StatusEvents.success(client);

            // PostgreSQL cannot take the row while this transaction holds the table.
            db.setAutoCommit(false);
            try (Statement lock = db.createStatement()) {
                lock.execute("LOCK TABLE webhook_delivery IN ACCESS EXCLUSIVE MODE");
            }
            RecordMetadata record = events.publish(event, event.serviceRequestId());
            TopicPartition partition = new TopicPartition(record.topic(), record.partition());

            // The consumer has the record and is waiting to insert its row...
            Patience.await().until(() -> insertWaiting());
            // ...and meanwhile its offset stays behind it, commit interval after commit interval.
            Patience.await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(3))
                    .until(() -> committed(admin, partition) <= record.offset());
            assertThat(receiver.received()).isEmpty();

            db.commit(); // the lock goes, the insert commits, then the offset may follow

            Patience.await().until(() -> committed(admin, partition) > record.offset());
            Patience.await().until(() -> receiver.received().size() == 1);
        }
    }

    private static boolean insertWaiting() throws Exception {
        try (Connection db = TestDatabase.fromEnvironment().connect("pmedia_notifier_test");
                Statement query = db.createStatement();
                var rows = query.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                        + " AND query LIKE '%INSERT INTO webhook_delivery%UNNEST%'")) {
            return rows.next() && rows.getInt(1) > 0;
        }
    }

    private static long committed(Admin admin, TopicPartition partition) throws Exception {
        OffsetAndMetadata offset = admin.listConsumerGroupOffsets("pmedia-notifier").partitionsToOffsetAndMetadata()
                .get().get(partition);
        return offset == null ? -1 : offset.offset();
    }
}
