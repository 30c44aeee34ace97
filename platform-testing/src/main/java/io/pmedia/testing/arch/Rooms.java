package io.pmedia.testing.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;

/**
 * The room rules of docs/architecture.md, for one service: its rooms (packages below the service's root package)
 * on levels from the top down, and what may live where. A room may import its own classes and those of rooms on
 * lower levels, never a room beside it or above it; a class in no declared room breaks the rules too, so that a new
 * package is placed on purpose. Each module's {@code ArchitectureTest} declares its rooms and checks every rule
 * against its production classes; {@code RoomsTest} shows that each rule fails on a class that breaks it.
 *
 * <pre>
 * Rooms.of("io.pmedia.vton", "rest", "service", "engine", "repository", "config").assertHold(TryOnRequest.class);
 * </pre>
 */
public final class Rooms {

    /** Where the service's root package (its domain: entities, status enums) sits: always the lowest level. */
    public static final String ROOT = ".";
    /** Packages whose use is Kafka: clients, admin, the reactive messaging channels. */
    static final String[] KAFKA = {"org.apache.kafka..", "io.smallrye.reactive.messaging..",
            "org.eclipse.microprofile.reactive.messaging..", "io.quarkus.kafka.."};
    /** Packages whose use is SQL written by hand: the SQL clients and our native-query helper. */
    static final String[] SQL = {"io.vertx.sqlclient..", "io.vertx.mutiny.sqlclient..", "io.vertx.pgclient..",
            "io.vertx.mutiny.pgclient..", "io.pmedia.common.db.."};
    static final String REST_CLIENT = "org.eclipse.microprofile.rest.client.inject.RegisterRestClient";
    private static final List<String> QUERY_METHODS = List.of("createNativeQuery", "createQuery",
            "createSelectionQuery", "createMutationQuery");
    /** The services' root packages: none may import another's. */
    static final List<String> SERVICES = List.of("io.pmedia.batch", "io.pmedia.campaign", "io.pmedia.engagement",
            "io.pmedia.gateway", "io.pmedia.media", "io.pmedia.notifier", "io.pmedia.vton");

    private final String base;
    private final Map<String, Integer> levels = new LinkedHashMap<>();

    private Rooms(String base, List<String> levels) {
        this.base = base;
        for (int level = 0; level < levels.size(); level++) {
            for (String room : levels.get(level).trim().split("\\s+")) {
                if (this.levels.put(room, level) != null) {
                    throw new IllegalArgumentException("room " + room + " is declared twice");
                }
            }
        }
        if (!this.levels.containsKey(ROOT)) {
            this.levels.put(ROOT, levels.size());
        }
    }

    /**
     * @param base the service's root package, e.g. {@code io.pmedia.media}
     * @param levels the rooms on each level from the top down, separated by spaces ({@code "rest messaging"}); a
     *        room is a package relative to {@code base} ({@code render.graph}), holding its sub-packages unless they
     *        are rooms of their own; {@link #ROOT} is the root package, the lowest level when not named
     */
    public static Rooms of(String base, String... levels) {
        return new Rooms(base, Arrays.asList(levels));
    }

    /** The service's production classes (no tests, no jars). */
    public JavaClasses production() {
        return new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS).importPackages(base);
    }

    /** The room of a class: the longest declared room its package is, or is below; empty when none is. */
    Optional<String> roomOf(JavaClass type) {
        String name = type.getPackageName();
        if (name.equals(base)) {
            return Optional.of(ROOT);
        }
        if (!name.startsWith(base + ".")) {
            return Optional.empty();
        }
        String relative = name.substring(base.length() + 1);
        return levels.keySet().stream().filter(room -> !room.equals(ROOT))
                .filter(room -> relative.equals(room) || relative.startsWith(room + "."))
                .max(Comparator.comparingInt(String::length));
    }

    private boolean inside(JavaClass type) {
        return type.getPackageName().equals(base) || type.getPackageName().startsWith(base + ".");
    }

    private String packageOf(String room) {
        return room.equals(ROOT) ? base : base + "." + room;
    }

    /** Every class is in a declared room; a room imports only itself and the rooms below it. */
    public ArchRule layering() {
        return classes().that(inBase())
                .should(new ArchCondition<JavaClass>("import only their own room and rooms below it") {
                    @Override
                    public void check(JavaClass type, ConditionEvents events) {
                        Optional<String> room = roomOf(type);
                        if (room.isEmpty()) {
                            events.add(SimpleConditionEvent.violated(type, type.getName() + " is in package "
                                    + type.getPackageName() + ", which is no declared room (" + levels.keySet() + ")"));
                            return;
                        }
                        int level = levels.get(room.get());
                        type.getDirectDependenciesFromSelf().stream().filter(d -> inside(d.getTargetClass()))
                                .forEach(d -> {
                                    Optional<String> target = roomOf(d.getTargetClass());
                                    if (target.isEmpty() || target.get().equals(room.get())) {
                                        return;
                                    }
                                    int other = levels.get(target.get());
                                    if (other <= level) {
                                        events.add(SimpleConditionEvent.violated(d,
                                                "room " + room.get() + " imports room "
                                                        + target.get() + (other == level ? ", beside it" : ", above it")
                                                        + ": "
                                                        + d.getDescription()));
                                    }
                                });
                    }
                }).allowEmptyShould(true);
    }

    /** Kafka (clients, admin, channels) is used only in these rooms. */
    public ArchRule kafkaOnlyIn(String... rooms) {
        return noClasses().that(inBase()).and(outside(rooms)).should().dependOnClassesThat()
                .resideInAnyPackage(KAFKA).because("Kafka belongs in " + String.join(" and ", rooms) + "/")
                .allowEmptyShould(true);
    }

    /** SQL written by hand (SQL clients, native queries, query strings) lives only in these rooms. */
    public ArchRule sqlOnlyIn(String... rooms) {
        return noClasses().that(inBase()).and(outside(rooms)).should(new ArchCondition<JavaClass>("use SQL") {
            @Override
            public void check(JavaClass type, ConditionEvents events) {
                type.getDirectDependenciesFromSelf().stream()
                        .filter(d -> Arrays.stream(SQL).anyMatch(p -> packageMatches(d.getTargetClass(), p)))
                        .forEach(d -> events.add(SimpleConditionEvent.satisfied(d, d.getDescription())));
                for (JavaMethodCall call : type.getMethodCallsFromSelf()) {
                    if (QUERY_METHODS.contains(call.getName())) {
                        events.add(SimpleConditionEvent.satisfied(call, call.getDescription()));
                    }
                }
            }
        }).because("SQL belongs in " + String.join(" and ", rooms) + "/").allowEmptyShould(true);
    }

    /** Every {@code @RegisterRestClient} interface lives in this room. */
    public ArchRule restClientsIn(String room) {
        return classes().that(inBase()).and().areAnnotatedWith(REST_CLIENT).should().resideInAPackage(packageOf(room)
                + "..").because("REST clients of other services belong in " + room + "/, behind a wrapper")
                .allowEmptyShould(true);
    }

    /** No service imports another: the services talk over HTTP through the gateway and over Kafka. */
    public ArchRule noOtherService() {
        return noOtherService(SERVICES);
    }

    ArchRule noOtherService(List<String> services) {
        String[] others = services.stream().filter(p -> !p.equals(base)).map(p -> p + "..").toArray(String[]::new);
        return noClasses().that(inBase()).should().dependOnClassesThat().resideInAnyPackage(others)
                .because("no service imports another").allowEmptyShould(true);
    }

    /** No room directly holds more than {@code max} top-level classes (a room a newcomer can take in). */
    public ArchRule roomsOfAtMost(int max) {
        return classes().that(inBase()).should(new ArchCondition<JavaClass>("share their package with at most "
                + max + " top-level classes") {
            private final Map<String, Integer> counts = new TreeMap<>();

            @Override
            public void init(java.util.Collection<JavaClass> all) {
                for (JavaClass type : all) {
                    if (type.isTopLevelClass()) {
                        counts.merge(type.getPackageName(), 1, Integer::sum);
                    }
                }
            }

            @Override
            public void check(JavaClass type, ConditionEvents events) {
                int count = counts.getOrDefault(type.getPackageName(), 0);
                if (type.isTopLevelClass() && count > max) {
                    events.add(SimpleConditionEvent.violated(type, "package " + type.getPackageName() + " holds "
                            + count + " classes (at most " + max + "): " + type.getName()));
                }
            }
        }).allowEmptyShould(true);
    }

    /** Every rule above, with the rooms the architecture names for Kafka, SQL and REST clients. */
    public List<ArchRule> rules() {
        return List.of(layering(), noOtherService(), restClientsIn("client"),
                kafkaOnlyIn(present("messaging", "worker")), sqlOnlyIn(present("repository")));
    }

    /**
     * Checks {@link #rules()} against the service's production classes, which must hold {@code anchor} (so that an
     * import of nothing cannot pass); the error lists every breach.
     */
    public void assertHold(Class<?> anchor) {
        JavaClasses types = production();
        if (!types.contain(anchor)) {
            throw new AssertionError("the production classes of " + base + " do not hold " + anchor.getName());
        }
        check(types);
    }

    /** Checks {@link #rules()} against {@code types}; the error lists every breach. */
    public void check(JavaClasses types) {
        List<String> failures = new ArrayList<>();
        for (ArchRule rule : rules()) {
            var result = rule.evaluate(types);
            if (result.hasViolation()) {
                failures.add(result.getFailureReport().toString());
            }
        }
        if (!failures.isEmpty()) {
            throw new AssertionError(String.join("\n\n", failures));
        }
    }

    private String[] present(String... rooms) {
        return Arrays.stream(rooms).filter(levels::containsKey).toArray(String[]::new);
    }

    private DescribedPredicate<JavaClass> inBase() {
        return DescribedPredicate.describe("are in " + base, this::inside);
    }

    private DescribedPredicate<JavaClass> outside(String... rooms) {
        List<String> allowed = List.of(rooms);
        return DescribedPredicate.describe("are outside " + allowed.stream().map(r -> r + "/")
                .collect(Collectors.joining(", ")), type -> roomOf(type).map(r -> !allowed.contains(r)).orElse(true));
    }

    private static boolean packageMatches(JavaClass type, String pattern) {
        String prefix = pattern.substring(0, pattern.length() - 2);
        return type.getPackageName().equals(prefix) || type.getPackageName().startsWith(prefix + ".");
    }
}
