package io.pmedia.testing.arch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;

import io.pmedia.testing.arch.fixture.Entity;
import io.pmedia.testing.arch.fixture.rest.ImportsAnotherService;
import io.pmedia.testing.arch.fixture.service.ReachesUp;
import io.pmedia.testing.arch.fixture.service.SendsOnKafka;
import io.pmedia.testing.arch.fixture.service.Upstream;
import io.pmedia.testing.arch.fixture.service.WritesSql;
import io.pmedia.testing.arch.fixture.stray.Stray;

/**
 * The tests of the architecture tests: each rule of {@link Rooms} fails on the fixture's one class that breaks it,
 * naming that class and why, and passes once that class is left out, so a module's ArchitectureTest that passes
 * says something.
 */
class RoomsTest {

    static final String BASE = "io.pmedia.testing.arch.fixture";
    static final JavaClasses FIXTURE = new ClassFileImporter().importPackages(BASE);
    static final Rooms ROOMS = Rooms.of(BASE, "rest messaging", "service", "client stray", "repository");

    @Test
    void aRoomThatImportsARoomAboveItFails() {
        assertThat(report(ROOMS.layering(), FIXTURE)).contains(ReachesUp.class.getName())
                .contains("room service imports room rest, above it");
        assertThat(report(ROOMS.layering(), without(FIXTURE, ReachesUp.class))).isEmpty();
    }

    @Test
    void aRoomThatImportsARoomBesideItFails() {
        Rooms flat = Rooms.of(BASE, "rest messaging service", "client stray", "repository");

        assertThat(report(flat.layering(), FIXTURE)).contains("room service imports room rest, beside it")
                .contains("room rest imports room service, beside it");
    }

    @Test
    void aClassInNoDeclaredRoomFails() {
        Rooms withoutStray = Rooms.of(BASE, "rest messaging", "service", "client", "repository");

        assertThat(report(withoutStray.layering(), without(FIXTURE, ReachesUp.class)))
                .contains(Stray.class.getName() + " is in package " + BASE + ".stray, which is no declared room");
    }

    @Test
    void kafkaOutsideMessagingFails() {
        String report = report(ROOMS.kafkaOnlyIn("messaging"), FIXTURE);

        assertThat(report).contains(SendsOnKafka.class.getName()).contains("Kafka belongs in messaging/")
                .doesNotContain("Listener");
        assertThat(report(ROOMS.kafkaOnlyIn("messaging"), without(FIXTURE, SendsOnKafka.class))).isEmpty();
    }

    @Test
    void sqlOutsideTheRepositoryFails() {
        String report = report(ROOMS.sqlOnlyIn("repository"), FIXTURE);

        assertThat(report).contains(WritesSql.class.getName()).contains("createNativeQuery")
                .doesNotContain("Store.load");
        assertThat(report(ROOMS.sqlOnlyIn("repository"), without(FIXTURE, WritesSql.class))).isEmpty();
    }

    @Test
    void aRestClientOutsideClientFails() {
        String report = report(ROOMS.restClientsIn("client"), FIXTURE);

        assertThat(report).contains(Upstream.class.getName()).doesNotContain("Downstream");
        assertThat(report(ROOMS.restClientsIn("client"), without(FIXTURE, Upstream.class))).isEmpty();
    }

    @Test
    void importingAnotherServiceFails() {
        JavaClasses both = new ClassFileImporter().importPackages(BASE, "io.pmedia.testing.arch.other");
        ArchRule rule = ROOMS.noOtherService(List.of(BASE, "io.pmedia.testing.arch.other"));

        assertThat(report(rule, both)).contains(ImportsAnotherService.class.getName())
                .contains("no service imports another");
        assertThat(report(rule, without(both, ImportsAnotherService.class))).isEmpty();
    }

    @Test
    void aRoomOfTooManyClassesFails() {
        assertThat(report(ROOMS.roomsOfAtMost(4), FIXTURE)).contains("package " + BASE + ".service holds 5 classes");
        assertThat(report(ROOMS.roomsOfAtMost(5), FIXTURE)).isEmpty();
    }

    @Test
    void checkListsEveryBreach() {
        assertThatThrownBy(() -> ROOMS.check(FIXTURE)).isInstanceOf(AssertionError.class)
                .hasMessageContaining(ReachesUp.class.getName()).hasMessageContaining(SendsOnKafka.class.getName())
                .hasMessageContaining(WritesSql.class.getName()).hasMessageContaining(Upstream.class.getName());
    }

    @Test
    void aModuleWhoseClassesWereNotFoundFails() {
        // production() leaves test classes out, and this fixture is one: nothing is imported, which must not pass
        assertThatThrownBy(() -> ROOMS.assertHold(Entity.class)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("do not hold " + Entity.class.getName());
    }

    private static String report(ArchRule rule, JavaClasses classes) {
        var result = rule.evaluate(classes);
        return result.hasViolation() ? result.getFailureReport().toString() : "";
    }

    private static JavaClasses without(JavaClasses classes, Class<?> left) {
        return classes.that(DescribedPredicate.not(DescribedPredicate.describe("is " + left.getSimpleName(),
                (JavaClass type) -> type.getName().equals(left.getName()))));
    }
}
