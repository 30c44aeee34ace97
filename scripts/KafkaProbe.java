import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The Kafka check of ./pmedia, run with the broker's own jars (java's single-file source launcher):
 *
 * <pre>
 *   java -cp '.pmedia/lib/kafka/*' scripts/KafkaProbe.java BOOTSTRAP ready [SECONDS [CLIENT_PROPERTIES]]
 *   java -cp '.pmedia/lib/kafka/*' scripts/KafkaProbe.java BOOTSTRAP roundtrip [SECONDS [CLIENT_PROPERTIES]]
 * </pre>
 *
 * {@code ready} waits until the broker answers metadata requests and lists itself as an active (unfenced) broker.
 * {@code roundtrip} then creates the topic {@code pmedia.local.probe} (if absent), produces one record and consumes it
 * back. Exit status 0 on success, 1 with a one-line reason on standard output otherwise. CLIENT_PROPERTIES: the
 * client's security settings when the broker authenticates (PMEDIA_KAFKA_ACLS=1: .pmedia/keys/kafka/admin.properties).
 */
public class KafkaProbe {

    private static final String TOPIC = "pmedia.local.probe";

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            System.out.println("usage: KafkaProbe BOOTSTRAP ready|roundtrip [SECONDS [CLIENT_PROPERTIES]]");
            System.exit(2);
        }
        String bootstrap = args[0];
        String mode = args[1];
        int seconds = args.length > 2 ? Integer.parseInt(args[2]) : 60;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        Properties security = new Properties();
        if (args.length > 3) {
            try (var in = Files.newInputStream(Path.of(args[3]))) {
                security.load(in);
            }
        }

        Properties props = new Properties();
        props.putAll(security);
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "5000");
        props.put(AdminClientConfig.RECONNECT_BACKOFF_MAX_MS_CONFIG, "500");
        try (Admin admin = Admin.create(props)) {
            String clusterId = awaitBroker(admin, deadline);
            if (!"roundtrip".equals(mode)) {
                System.out.println("kafka ready (cluster " + clusterId + ")");
                return;
            }
            try {
                admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get(10, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    fail("cannot create topic " + TOPIC + ": " + e.getCause());
                }
            }
        }
        roundtrip(bootstrap, security, deadline);
    }

    private static String awaitBroker(Admin admin, long deadline) throws InterruptedException {
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            try {
                DescribeClusterResult cluster = admin.describeCluster();
                Collection<Node> nodes = cluster.nodes().get(5, TimeUnit.SECONDS);
                if (!nodes.isEmpty()) {
                    return cluster.clusterId().get(5, TimeUnit.SECONDS);
                }
                last = "no active broker yet";
            } catch (Exception e) {
                last = String.valueOf(e.getCause() != null ? e.getCause() : e);
            }
            Thread.sleep(300);
        }
        fail("broker not ready: " + last);
        return null;
    }

    private static void roundtrip(String bootstrap, Properties security, long deadline) throws Exception {
        String value = "probe-" + UUID.randomUUID();
        RecordMetadata sent;
        Properties producerProps = new Properties();
        producerProps.putAll(security);
        producerProps.putAll(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "20000",
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "10000",
                ProducerConfig.MAX_BLOCK_MS_CONFIG, "10000"));
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps, new StringSerializer(),
                new StringSerializer())) {
            sent = producer.send(new ProducerRecord<>(TOPIC, "probe", value)).get(20, TimeUnit.SECONDS);
        }
        TopicPartition partition = new TopicPartition(sent.topic(), sent.partition());
        Properties consumerProps = new Properties();
        consumerProps.putAll(security);
        consumerProps.putAll(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"));
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerProps, new StringDeserializer(),
                new StringDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seek(partition, sent.offset());
            while (System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500))) {
                    if (value.equals(record.value())) {
                        System.out.println("kafka roundtrip ok (topic " + TOPIC + ", partition " + sent.partition()
                                + ", offset " + record.offset() + ")");
                        return;
                    }
                }
            }
        }
        fail("produced to " + partition + " at offset " + sent.offset() + " but did not consume it back");
    }

    private static void fail(String message) {
        System.out.println(message);
        System.exit(1);
    }
}
