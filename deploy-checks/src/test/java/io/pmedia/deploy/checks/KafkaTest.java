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
 * are exactly the topics it produces and consumes and the groups it consumes in, all derived from the services' own
 * configuration (ServiceConfig: channels, outbox topics, the role files, the render lanes).
 */
class KafkaTest {

    static final List<String> OVERLAYS = Manifests.OVERLAYS;

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
        assertThat(aclProblems(Manifests.of(overlay))).as("%s: KafkaUsers against the code", overlay).isEmpty();
    }

    /** The check bites: one ACL fewer (the workers' Read on a lane) or one more (Write on a status topic) fails it. */
    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void theAclCheckFailsOnAMissingOrAnExtraAcl(String overlay) {
        Manifests m = Manifests.of(overlay);
        Manifests missing = m.changed(objects -> objects.stream().filter(o -> Manifests.id(o).equals(
                "KafkaUser pmedia-media-worker")).forEach(o -> {
                    var acls = (com.fasterxml.jackson.databind.node.ArrayNode) o.path("spec").path("authorization")
                            .path("acls");
                    for (int i = 0; i < acls.size(); i++) {
                        if (acls.get(i).path("resource").path("name").asText().equals(Topics.RENDER_JOBS_BATCH)) {
                            acls.remove(i);
                            break;
                        }
                    }
                }));
        assertThat(aclProblems(missing)).anySatisfy(p -> assertThat(p).contains("pmedia-media-worker")
                .contains("missing [topic " + Topics.RENDER_JOBS_BATCH + " read]"));

        // The defect of issue 24: a worker that relays the outbox needs Write on the status topic; give it that ACL
        // without the relay and the check calls it extra.
        Manifests extra = m.changed(objects -> objects.stream().filter(o -> Manifests.id(o).equals(
                "KafkaUser pmedia-media-worker")).forEach(
                        o -> ((com.fasterxml.jackson.databind.node.ArrayNode) o
                                .path("spec").path("authorization").path("acls"))
                                .addObject().<com.fasterxml.jackson.databind.node.ObjectNode>set("resource",
                                        o.objectNode()
                                                .put("type", "topic").put("name", Topics.MEDIA_STATUS)
                                                .put("patternType", "literal"))
                                .putArray("operations").add("Write").add("Describe")));
        assertThat(aclProblems(extra)).anySatisfy(p -> assertThat(p).contains("pmedia-media-worker")
                .contains("extra [topic " + Topics.MEDIA_STATUS + " write]"));
    }

    /** For each Deployment: the ACLs its KafkaUser lacks and those it has beyond what its code uses. */
    static List<String> aclProblems(Manifests m) {
        List<String> problems = new java.util.ArrayList<>();
        for (var node : m.ofKind("Deployment")) {
            Deployment d = TypedModels.bind(node, Deployment.class);
            String workload = d.getMetadata().getName();
            ServiceConfig config = ServiceConfig.of(workload);

            Set<String> expected = new TreeSet<>();
            config.consumed().forEach((topic, groups) -> {
                expected.add("topic " + topic + " read");
                groups.forEach(group -> expected.add("group " + group + " read"));
            });
            config.produced().forEach(t -> expected.add("topic " + t + " write"));

            var jaas = WorkloadTest.container(d).getEnv().stream()
                    .filter(e -> e.getName().equals("KAFKA_SASL_JAAS_CONFIG")).findFirst();
            if (expected.isEmpty()) {
                if (jaas.isPresent()) {
                    problems.add(workload + " uses no Kafka but gets Kafka credentials");
                }
                continue;
            }
            if (jaas.isEmpty()) {
                problems.add(workload + " has no Kafka credentials");
                continue;
            }
            EnvVar credentials = jaas.get();
            String user = credentials.getValueFrom().getSecretKeyRef().getName();
            if (!user.equals("pmedia-" + workload)) {
                problems.add(workload + " authenticates as " + user + ", not as its own KafkaUser");
                continue;
            }
            Set<String> actual = acls(TypedModels.bind(m.get("KafkaUser", user), KafkaUser.class));
            Set<String> missing = new TreeSet<>(expected);
            missing.removeAll(actual);
            Set<String> extra = new TreeSet<>(actual);
            extra.removeAll(expected);
            if (!missing.isEmpty()) {
                problems.add(user + " missing " + missing);
            }
            if (!extra.isEmpty()) {
                problems.add(user + " extra " + extra);
            }
        }
        return problems;
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
