package io.pmedia.testing;

import java.util.Map;

import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * A real Kafka broker (KRaft, one combined node) inside the test JVM, on free ports and a fresh data directory.
 * Started once per JVM and shared by every test class of the module; closed when the JVM exits.
 */
public class KafkaTestResource implements QuarkusTestResourceLifecycleManager {

    private static KafkaClusterTestKit cluster;

    @Override
    public Map<String, String> start() {
        return Map.of("kafka.bootstrap.servers", bootstrapServers());
    }

    @Override
    public void stop() {
        // Kept for the next test class; closed by the shutdown hook.
    }

    /** The broker's bootstrap servers, starting it on first use. */
    public static synchronized String bootstrapServers() {
        if (cluster == null) {
            // A broker that hits a fatal error (say, while the JVM shuts it down) must not end the test JVM with a
            // non-zero exit code: the tests have passed by then, and Surefire would report the fork as failed.
            org.apache.kafka.common.utils.Exit.setExitProcedure((code, message) -> System.err
                    .printf("in-JVM Kafka broker asked to exit(%d): %s (ignored in tests)%n", code, message));
            org.apache.kafka.common.utils.Exit.setHaltProcedure((code, message) -> System.err
                    .printf("in-JVM Kafka broker asked to halt(%d): %s (ignored in tests)%n", code, message));
            try {
                KafkaClusterTestKit kit = new KafkaClusterTestKit.Builder(new TestKitNodes.Builder()
                        .setCombined(true)
                        .setNumBrokerNodes(1)
                        .setNumControllerNodes(1)
                        .build())
                        .setConfigProp("auto.create.topics.enable", "true")
                        .setConfigProp("num.partitions", "3")
                        .setConfigProp("offsets.topic.replication.factor", "1")
                        .setConfigProp("offsets.topic.num.partitions", "3")
                        .setConfigProp("transaction.state.log.replication.factor", "1")
                        .setConfigProp("transaction.state.log.min.isr", "1")
                        .setConfigProp("group.initial.rebalance.delay.ms", "0")
                        .setConfigProp("share.coordinator.state.topic.replication.factor", "1")
                        .setConfigProp("share.coordinator.state.topic.min.isr", "1")
                        .setDeleteOnClose(true)
                        .build();
                kit.format();
                kit.startup();
                kit.waitForReadyBrokers();
                cluster = kit;
                Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                    try {
                        kit.close();
                    } catch (Exception ignored) {
                        // the JVM is exiting; the data directory is temporary
                    }
                }, "kafka-test-broker-shutdown"));
            } catch (Exception e) {
                throw new IllegalStateException("cannot start the in-JVM Kafka broker: " + e.getMessage(), e);
            }
        }
        return cluster.bootstrapServers();
    }
}
