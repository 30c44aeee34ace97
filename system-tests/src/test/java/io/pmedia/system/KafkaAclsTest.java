package io.pmedia.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.pmedia.events.Topics;
import io.pmedia.testing.Patience;

/**
 * The stack's broker as the cluster's (PMEDIA_KAFKA_ACLS=1, what {@code ./pmedia test} runs): every client
 * authenticates, and a KafkaUser publishes only where its ACLs allow. The whole suite passing this way shows that no
 * role uses a topic its KafkaUser does not allow; these show that a role that did would fail. Skipped on a stack
 * without ACLs. Nothing here lands on a topic: every record sent is refused.
 */
class KafkaAclsTest {

    /** media-api's ACL that media's outbox relay needs for every status event (deploy/k8s users.yaml). */
    private static final AclBinding API_WRITES_STATUS = new AclBinding(
            new ResourcePattern(ResourceType.TOPIC, Topics.MEDIA_STATUS, PatternType.LITERAL),
            new AccessControlEntry("User:pmedia-media-api", "*", AclOperation.WRITE, AclPermissionType.ALLOW));

    @BeforeAll
    static void onlyWithAcls() {
        assumeThat(Stack.kafkaAcls()).as("the stack runs Kafka with ACLs (PMEDIA_KAFKA_ACLS=1 ./pmedia up)").isTrue();
    }

    @Test
    void aRenderWorkerCannotPublishStatusEventsItsKafkaUserDoesNotAllow() throws Exception {
        // The defect of issue 24: a worker that ran media's outbox relay would publish here, and be refused.
        assertThat(authorizedOn("pmedia-media-worker", Topics.MEDIA_STATUS)).doesNotContain(AclOperation.WRITE);
        assertThatThrownBy(() -> publish("pmedia-media-worker", Topics.MEDIA_STATUS))
                .hasRootCauseInstanceOf(TopicAuthorizationException.class);
        assertThat(authorizedOn("pmedia-media-api", Topics.MEDIA_STATUS)).contains(AclOperation.WRITE);
    }

    @Test
    void removingOneAclMakesThatPublicationFailWithAnAuthorizationError() throws Exception {
        try (Admin admin = Admin.create(Stack.kafka("admin"))) {
            admin.deleteAcls(List.of(API_WRITES_STATUS.toFilter())).all().get(30, TimeUnit.SECONDS);
            try {
                Patience.await()
                        .until(() -> !authorizedOn("pmedia-media-api", Topics.MEDIA_STATUS)
                                .contains(AclOperation.WRITE));
                assertThatThrownBy(() -> publish("pmedia-media-api", Topics.MEDIA_STATUS))
                        .hasRootCauseInstanceOf(TopicAuthorizationException.class);
            } finally {
                admin.createAcls(List.of(API_WRITES_STATUS)).all().get(30, TimeUnit.SECONDS);
            }
            Patience.await()
                    .until(() -> authorizedOn("pmedia-media-api", Topics.MEDIA_STATUS).contains(AclOperation.WRITE));
        }
    }

    @Test
    void aServiceWithAWrongPasswordIsNotLetIn() {
        Properties wrong = Stack.kafka("pmedia-media-api");
        wrong.put("sasl.jaas.config", wrong.getProperty("sasl.jaas.config").replaceAll("password=\"[^\"]*\"",
                "password=\"not-the-password\""));
        wrong.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        wrong.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000");
        try (Admin admin = Admin.create(wrong)) {
            assertThatThrownBy(() -> admin.describeCluster().clusterId().get(10, TimeUnit.SECONDS))
                    .hasRootCauseInstanceOf(SaslAuthenticationException.class);
        }
    }

    /** What {@code principal} may do on {@code topic}, as the broker answers the principal itself. */
    private static Set<AclOperation> authorizedOn(String principal, String topic) throws Exception {
        try (Admin admin = Admin.create(Stack.kafka(principal))) {
            try {
                return admin.describeTopics(List.of(topic), new DescribeTopicsOptions()
                        .includeAuthorizedOperations(true)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic)
                        .authorizedOperations();
            } catch (ExecutionException e) {
                if (e.getCause() instanceof TopicAuthorizationException) {
                    return Set.of(); // not even Describe
                }
                throw e;
            }
        }
    }

    /** Sends one record as {@code principal} and waits for its acknowledgement (or the refusal). */
    private static void publish(String principal, String topic) throws Exception {
        Properties properties = Stack.kafka(principal);
        properties.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "10000");
        properties.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "10000");
        properties.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(properties, new StringSerializer(),
                new StringSerializer())) {
            producer.send(new ProducerRecord<>(topic, "kafka-acls-test", "refused")).get(20, TimeUnit.SECONDS);
        }
    }
}
