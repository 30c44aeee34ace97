package io.pmedia.deploy.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Every Secret the manifests reference exists: rendered by the overlay (none are: secrets are never in git), made by
 * an operator from an object of the overlay (a KafkaUser's, the Kafka cluster CA's, a Certificate's), or listed as
 * external in docs/operations.md ("Create the secrets"), which is what the platform team creates.
 */
class SecretReferenceTest {

    static final List<String> OVERLAYS = Manifests.OVERLAYS;

    static Set<String> documentedExternal() {
        String doc = Manifests.read(Manifests.root().resolve("docs/operations.md"));
        int start = doc.indexOf("## Create the secrets");
        int end = doc.indexOf("\n## ", start + 1);
        Set<String> names = new TreeSet<>();
        Matcher row = Pattern.compile("(?m)^\\| `([a-z0-9-]+)` \\|").matcher(doc.substring(start, end));
        while (row.find()) {
            names.add(row.group(1));
        }
        return names;
    }

    static Set<String> referenced(Manifests m) {
        Set<String> names = new TreeSet<>();
        for (JsonNode object : m.objects) {
            collect(object, names);
        }
        return names;
    }

    /** secretKeyRef, secretRef, secret volumes, TriggerAuthentication secretTargetRef, CNPG and cert-manager refs. */
    private static void collect(JsonNode node, Set<String> names) {
        if (node.isObject()) {
            node.fields().forEachRemaining(e -> {
                JsonNode v = e.getValue();
                switch (e.getKey()) {
                    case "secretKeyRef", "secretRef", "passwordSecret", "accessKeyId", "secretAccessKey" -> names.add(
                            v.path("name").asText());
                    case "secret" -> names.add(v.has("secretName")
                            ? v.path("secretName").asText()
                            : v.path("name").asText());
                    case "secretTargetRef" -> v.forEach(ref -> names.add(ref.path("name").asText()));
                    case "secretName" -> names.add(v.asText());
                    default -> {
                    }
                }
                collect(v, names);
            });
        } else if (node.isArray()) {
            node.forEach(item -> collect(item, names));
        }
        names.remove("");
    }

    static Set<String> madeByOperators(Manifests m) {
        Set<String> names = new TreeSet<>();
        m.ofKind("KafkaUser").forEach(u -> names.add(Manifests.name(u)));
        m.ofKind("Kafka").forEach(k -> names.add(Manifests.name(k) + "-cluster-ca-cert"));
        m.ofKind("Certificate").forEach(c -> names.add(c.path("spec").path("secretName").asText()));
        return names;
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void everyReferencedSecretIsCreatedBySomeone(String overlay) {
        Manifests m = Manifests.of(overlay);
        Set<String> known = new TreeSet<>(documentedExternal());
        known.addAll(madeByOperators(m));
        m.ofKind("Secret").forEach(s -> known.add(Manifests.name(s)));
        // A Secret a Certificate writes is also read by its Issuer: that is a reference too.
        assertThat(referenced(m)).as("%s: referenced Secrets nobody creates", overlay).isSubsetOf(known);
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void theExternalListHasNoSecretThatNothingUses(String overlay) {
        Set<String> everywhere = new TreeSet<>();
        OVERLAYS.forEach(o -> everywhere.addAll(referenced(Manifests.of(o))));
        assertThat(documentedExternal()).as("docs/operations.md lists only Secrets some overlay uses")
                .isSubsetOf(everywhere).contains("pmedia-jwt", "pmedia-db-gateway", "pmedia-s3");
    }
}
