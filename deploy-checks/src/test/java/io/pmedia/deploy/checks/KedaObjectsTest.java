package io.pmedia.deploy.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;

import io.strimzi.api.kafka.model.topic.KafkaTopic;

/**
 * KEDA's objects against KEDA 2.19's typed model (npm {@code @kubernetes-models/keda} 2.0.0, generated from KEDA
 * v2.19.0's API types): TypeScript compiles each object as a literal of its interface, which refuses unknown fields
 * and wrong types, and the package's schema validator checks the rest. And each ScaledObject is bounded by the
 * partitions of the topics it scales on.
 */
class KedaObjectsTest {

    static final List<String> OVERLAYS = Manifests.OVERLAYS;
    private static final Map<String, String> TYPES = Map.of(
            "ScaledObject", "IScaledObject",
            "TriggerAuthentication", "ITriggerAuthentication");

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void kedaObjectsConformToKedasTypedModel(String overlay) throws Exception {
        Path node = Path.of(System.getProperty("pmedia.node.dir", "target/node"));
        Path dir = Files.createDirectories(node.resolve("objects-" + overlay));
        StringBuilder ts = new StringBuilder();
        StringBuilder check = new StringBuilder("const failures = [];\n");
        int i = 0;
        JsonMapper json = JsonMapper.builder().build();
        for (JsonNode object : Manifests.of(overlay).objects) {
            String key = TypedModels.key(object);
            if (!TypedModels.CHECKED_BY_TYPESCRIPT.contains(key)) {
                continue;
            }
            String kind = object.path("kind").asText();
            ts.append("import type { ").append(TYPES.get(kind)).append(" as T").append(i)
                    .append(" } from \"@kubernetes-models/keda/keda.sh/v1alpha1/").append(kind).append("\";\n");
            ts.append("export const o").append(i).append(": T").append(i).append(" = ")
                    .append(json.writeValueAsString(object)).append(";\n");
            check.append("import { ").append(kind).append(" as C").append(i)
                    .append(" } from \"@kubernetes-models/keda/keda.sh/v1alpha1/").append(kind).append("\";\n");
            check.append("try { new C").append(i).append("(").append(json.writeValueAsString(object))
                    .append(").validate(); } catch (e) { failures.push(\"").append(Manifests.id(object))
                    .append(": \" + e.message); }\n");
            i++;
        }
        assertThat(i).as("%s has KEDA objects", overlay).isGreaterThanOrEqualTo(3);
        check.append("if (failures.length) { console.log(failures.join(\"\\n\")); process.exit(1); }\n");
        Files.writeString(dir.resolve("objects.ts"), ts.toString());
        Files.writeString(dir.resolve("validate.mjs"), check.toString());

        assertThat(run(node, "node", "node_modules/typescript/bin/tsc", "--noEmit", "--strict",
                "--module", "nodenext", "--moduleResolution", "nodenext", "--target", "es2022", "--skipLibCheck",
                dir.resolve("objects.ts").toString())).as("TypeScript: %s's KEDA objects", overlay).isEmpty();
        Files.copy(dir.resolve("validate.mjs"), node.resolve("validate-" + overlay + ".mjs"),
                java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        assertThat(run(node, "node", "validate-" + overlay + ".mjs")).as("schema: %s's KEDA objects", overlay)
                .isEmpty();
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void scaledObjectsAreBoundedByThePartitionsOfTheirTopics(String overlay) {
        Manifests m = Manifests.of(overlay);
        Map<String, KafkaTopic> topics = KafkaTest.topics(m);
        for (JsonNode scaled : m.ofKind("ScaledObject")) {
            String target = scaled.path("spec").path("scaleTargetRef").path("name").asText();
            int max = scaled.path("spec").path("maxReplicaCount").asInt();
            Map<String, java.util.Set<String>> consumed = ServiceConfig.of(target).consumed();
            for (JsonNode trigger : scaled.path("spec").path("triggers")) {
                String topic = trigger.path("metadata").path("topic").asText();
                assertThat(trigger.path("type").asText()).isEqualTo("kafka");
                assertThat(consumed).as("%s consumes %s", target, topic).containsKey(topic);
                assertThat(consumed.get(topic)).contains(trigger.path("metadata").path("consumerGroup").asText());
                assertThat(max).as("%s: at most one consumer per partition of %s", target, topic)
                        .isLessThanOrEqualTo(topics.get(topic).getSpec().getPartitions());
            }
        }
    }

    private static String run(Path dir, String... command) throws Exception {
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return process.exitValue() == 0 ? "" : out.isBlank() ? "exit " + process.exitValue() : out;
    }
}
