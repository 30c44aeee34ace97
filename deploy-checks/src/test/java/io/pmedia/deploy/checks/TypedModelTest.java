package io.pmedia.deploy.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import com.fasterxml.jackson.databind.node.ObjectNode;

/** Both overlays render, and every object they hold conforms to the typed model of its kind. */
class TypedModelTest {

    static final List<String> OVERLAYS = Manifests.OVERLAYS;

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void everyObjectConformsToItsTypedModel(String overlay) {
        Manifests manifests = Manifests.of(overlay);
        assertThat(manifests.objects).as("%s renders objects", overlay).hasSizeGreaterThan(50);

        List<String> problems = new ArrayList<>();
        for (ObjectNode object : manifests.objects) {
            if (TypedModels.CHECKED_BY_TYPESCRIPT.contains(TypedModels.key(object))) {
                continue;
            }
            TypedModels.check(object).forEach(p -> problems.add(Manifests.id(object) + ": " + p));
        }
        assertThat(problems).as("%s: objects that do not conform to their model", overlay).isEmpty();
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void everythingLivesInThePmediaNamespace(String overlay) {
        assertThat(Manifests.of(overlay).objects)
                .filteredOn(o -> !"Namespace".equals(o.path("kind").asText()))
                .allSatisfy(o -> assertThat(o.path("metadata").path("namespace").asText())
                        .as(Manifests.id(o)).isEqualTo(Manifests.NAMESPACE));
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void noSecretIsEmbedded(String overlay) {
        assertThat(Manifests.of(overlay).ofKind("Secret")).as("Secrets are referenced, never rendered").isEmpty();
    }
}
