package io.pmedia.deploy.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.pmedia.events.Topics;
import io.strimzi.api.kafka.model.kafka.Kafka;
import io.strimzi.api.kafka.model.topic.KafkaTopic;
import io.strimzi.api.kafka.model.user.KafkaUser;
import io.strimzi.api.kafka.model.user.KafkaUserAuthorizationSimple;
import io.strimzi.api.kafka.model.user.acl.AclRule;
import io.strimzi.api.kafka.model.user.acl.AclRuleGroupResource;
import io.strimzi.api.kafka.model.user.acl.AclRuleTopicResource;

/**
 * Kafka as the code uses it: a KafkaTopic for every topic the code names, and for each client a KafkaUser whose ACLs
 * are exactly the topics it produces and consumes and the groups it consumes in.
 */
class KafkaTest {

    static final List<String> OVERLAYS = Manifests.OVERLAYS;

    /**
     * What each client publishes through its transactional outbox (EventPayload.topic() of the events it writes) or
     * from a render job's reply-to: not visible in application.properties, so stated here, beside the code's names.
     */
    static final Map<String, Set<String>> PUBLISHED_OUTSIDE_CHANNELS = Map.of(
            "media-api", Set.of(Topics.MEDIA_STATUS, Topics.RENDER_JOBS),
            "media-worker", Set.of(Topics.BATCH_RENDER_RESULTS),
            "batch", Set.of(Topics.BATCH_STATUS, Topics.RENDER_JOBS_BATCH),
            "vton", Set.of(Topics.VTON_STATUS),
            "campaign", Set.of(Topics.CAMPAIGN_STATUS),
            "notifier", Set.of(Topics.WEBHOOK_DEAD_LETTER));

    /**
     * Consumed outside messaging channels: the render workers' two lanes are plain Kafka consumers in one group
     * (media-service render/RenderLanes, MediaConfig.Render.group).
     */
    static final Map<String, Map<String, String>> CONSUMED_OUTSIDE_CHANNELS = Map.of(
            "media-worker", Map.of(Topics.RENDER_JOBS, "pmedia-render-workers",
                    Topics.RENDER_JOBS_BATCH, "pmedia-render-workers"));

    static Set<String> codeTopics() {
        Set<String> topics = new TreeSet<>();
        for (Field field : Topics.class.getFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == String.class) {
                try {
                    String value = (String) field.get(null);
                    if (value.startsWith("pmedia.")) {
                        topics.add(value);
                    }
                } catch (IllegalAccessException e) {
                    throw new AssertionError(e);
                }
            }
        }
        return topics;
    }

    static Map<String, KafkaTopic> topics(Manifests m) {
        Map<String, KafkaTopic> topics = new HashMap<>();
        for (var node : m.ofKind("KafkaTopic")) {
            KafkaTopic topic = TypedModels.bind(node, KafkaTopic.class);
            String name = topic.getSpec().getTopicName() != null
                    ? topic.getSpec().getTopicName()
                    : topic.getMetadata().getName();
            topics.put(name, topic);
        }
        return topics;
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void everyTopicOfTheCodeHasAKafkaTopic(String overlay) {
        Map<String, KafkaTopic> topics = topics(Manifests.of(overlay));
        Set<String> used = new TreeSet<>(codeTopics());
        ServiceConfig.all().values().forEach(s -> {
            used.addAll(s.consumed().keySet());
            used.addAll(s.produced());
        });
        PUBLISHED_OUTSIDE_CHANNELS.values().forEach(used::addAll);
        assertThat(topics.keySet()).as("KafkaTopics of %s", overlay).containsAll(used);
        for (KafkaTopic topic : topics.values()) {
            assertThat(topic.getMetadata().getLabels()).containsEntry("strimzi.io/cluster", "pmedia");
            assertThat(topic.getSpec().getPartitions()).as(topic.getMetadata().getName()).isPositive();
            assertThat(topic.getSpec().getConfig()).as("%s: retention chosen", topic.getMetadata().getName())
                    .containsKey("retention.ms");
        }
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void eachClientsAclsAreExactlyWhatItsCodeUses(String overlay) {
        Manifests m = Manifests.of(overlay);
        for (var node : m.ofKind("Deployment")) {
            Deployment d = TypedModels.bind(node, Deployment.class);
            String workload = d.getMetadata().getName();
            ServiceConfig config = ServiceConfig.of(workload);

            Set<String> expected = new TreeSet<>();
            Map<String, String> consumed = new HashMap<>(config.consumed());
            consumed.putAll(CONSUMED_OUTSIDE_CHANNELS.getOrDefault(workload, Map.of()));
            consumed.forEach((topic, group) -> {
                expected.add("topic " + topic + " read");
                expected.add("group " + group + " read");
            });
            config.produced().forEach(t -> expected.add("topic " + t + " write"));
            PUBLISHED_OUTSIDE_CHANNELS.getOrDefault(workload, Set.of()).forEach(t -> expected.add("topic " + t
                    + " write"));

            var jaas = WorkloadTest.container(d).getEnv().stream()
                    .filter(e -> e.getName().equals("KAFKA_SASL_JAAS_CONFIG")).findFirst();
            if (expected.isEmpty()) {
                assertThat(jaas).as("%s uses no Kafka and gets no Kafka credentials", workload).isEmpty();
                continue;
            }
            EnvVar credentials = jaas.orElseThrow(() -> new AssertionError(workload + " has no Kafka credentials"));
            String user = credentials.getValueFrom().getSecretKeyRef().getName();
            assertThat(user).as("%s authenticates as its own KafkaUser", workload).isEqualTo("pmedia-" + workload);
            assertThat(acls(TypedModels.bind(m.get("KafkaUser", user), KafkaUser.class)))
                    .as("ACLs of %s", user).isEqualTo(expected);
        }
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void everyAclNamesAnExistingTopic(String overlay) {
        Manifests m = Manifests.of(overlay);
        Set<String> topics = topics(m).keySet();
        for (var node : m.ofKind("KafkaUser")) {
            KafkaUser user = TypedModels.bind(node, KafkaUser.class);
            for (AclRule rule : ((KafkaUserAuthorizationSimple) user.getSpec().getAuthorization()).getAcls()) {
                if (rule.getResource() instanceof AclRuleTopicResource topic) {
                    assertThat(topics).as("%s names topic %s", user.getMetadata().getName(), topic.getName())
                            .contains(topic.getName());
                }
            }
        }
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void clientsAuthenticateOnTheListenerTheirConfigurationNames(String overlay) {
        Manifests m = Manifests.of(overlay);
        Kafka kafka = TypedModels.bind(m.get("Kafka", "pmedia"), Kafka.class);
        var listener = kafka.getSpec().getKafka().getListeners().get(0);
        assertThat(listener.isTls()).isTrue();
        assertThat(listener.getAuth().getType()).isEqualTo("scram-sha-512");
        String bootstrap = m.get("ConfigMap", configMapName(m, "pmedia-kafka")).path("data")
                .path("PMEDIA_KAFKA_BOOTSTRAP").asText();
        assertThat(bootstrap).isEqualTo("pmedia-kafka-bootstrap:" + listener.getPort());
        assertThat(kafka.getSpec().getKafka().getConfig()).containsEntry("auto.create.topics.enable", false);
    }

    /** Operation set of a KafkaUser, Describe aside (every read or write implies it). */
    static Set<String> acls(KafkaUser user) {
        Set<String> acls = new TreeSet<>();
        for (AclRule rule : ((KafkaUserAuthorizationSimple) user.getSpec().getAuthorization()).getAcls()) {
            String resource;
            if (rule.getResource() instanceof AclRuleTopicResource topic) {
                resource = "topic " + topic.getName();
            } else if (rule.getResource() instanceof AclRuleGroupResource group) {
                resource = "group " + group.getName();
            } else {
                resource = "other " + rule.getResource().getType();
            }
            rule.getOperations().stream().map(op -> op.toValue().toLowerCase())
                    .filter(op -> !op.equals("describe")).forEach(op -> acls.add(resource + " " + op));
        }
        return acls;
    }

    static String configMapName(Manifests m, String prefix) {
        return m.ofKind("ConfigMap").stream().map(Manifests::name)
                .filter(n -> n.equals(prefix) || n.matches(java.util.regex.Pattern.quote(prefix) + "-[a-z0-9]{10}"))
                .findFirst().orElseThrow(() -> new AssertionError("no ConfigMap " + prefix));
    }
}
