package io.pmedia.deploy.checks;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.apps.Deployment;

/**
 * Memory and ephemeral storage are computed, not guessed (docs/operations.md, "Memory"). For every Deployment: its
 * heap (the JVM flags: an explicit -Xmx of the Deployment's JAVA_TOOL_OPTIONS / JDK_JAVA_OPTIONS, else the image's
 * MaxRAMPercentage of deploy/docker/Dockerfile times the limit), plus what its module's JVM uses outside the heap as
 * measured in docs/performance.md (the larger of its idle figure and its figure under a load, where it has one) with
 * {@link #NON_HEAP_HEADROOM}, plus FFmpeg's measured peak per concurrent run
 * where its image carries FFmpeg (deploy/docker/images.txt), fits its memory limit, and it requests what it is limited
 * to. PostgreSQL: shared_buffers + max_connections x (work_mem + a backend's measured memory) + autovacuum workers x
 * maintenance_work_mem, plus {@link #POSTGRES_HEADROOM}, fits the Cluster's limit. Every disk cache a workload's code
 * keeps in /tmp (its {@code @ConfigMapping}s' cache sizes, resolved against the Deployment's environment) leaves a
 * quarter of the emptyDir to work files, and the pod requests the emptyDir's bound as ephemeral storage.
 */
class MemoryTest {

    static final List<String> OVERLAYS = Manifests.OVERLAYS;
    static final double NON_HEAP_HEADROOM = 1.2;
    static final double POSTGRES_HEADROOM = 1.1;
    /** The share of /tmp the caches may fill: the rest is a render's or a preview's work files. */
    static final double CACHE_SHARE = 0.75;
    static final long MIB = 1 << 20;

    /** A table of docs/performance.md's section on memory: first column -> the number in the last. */
    static Map<String, Long> measured(String header) {
        String doc = Manifests.read(Manifests.root().resolve("docs/performance.md"));
        int at = doc.indexOf("## Memory outside the heap");
        assertThat(at).as("docs/performance.md has the memory measurements").isNotNegative();
        Map<String, Long> rows = new LinkedHashMap<>();
        boolean in = false;
        for (String line : doc.substring(at).lines().toList()) {
            if (line.startsWith("| " + header + " |")) {
                in = true;
                continue;
            }
            if (in && line.startsWith("|---")) {
                continue;
            }
            if (in && line.startsWith("| ")) {
                String[] cells = line.split("\\|");
                rows.put(cells[1].strip(), Long.parseLong(cells[cells.length - 1].strip()));
            } else if (in) {
                break;
            }
        }
        assertThat(rows).as("docs/performance.md's table '%s'", header).isNotEmpty();
        return rows;
    }

    /** The image's heap share of the container's limit (JDK_JAVA_OPTIONS of deploy/docker/Dockerfile). */
    static double imageHeapShare() {
        String dockerfile = Manifests.read(Manifests.root().resolve("deploy/docker/Dockerfile"));
        Matcher m = Pattern.compile("-XX:MaxRAMPercentage=(\\d+(?:\\.\\d+)?)").matcher(dockerfile);
        assertThat(m.find()).as("the Dockerfile sizes the heap with MaxRAMPercentage").isTrue();
        return Double.parseDouble(m.group(1)) / 100;
    }

    static long bytes(Object quantity) {
        return Quantity.getAmountInBytes(new Quantity(String.valueOf(quantity))).longValue();
    }

    static double cores(Quantity quantity) {
        return Quantity.getAmountInBytes(quantity).doubleValue();
    }

    /** The image runtime of each module (deploy/docker/images.txt). */
    static String runtime(String module) {
        return Manifests.read(Manifests.root().resolve("deploy/docker/images.txt")).lines()
                .filter(l -> l.startsWith(module + " ")).map(l -> l.split(" ")[1]).findFirst()
                .orElseThrow(() -> new AssertionError(module + " is not in deploy/docker/images.txt"));
    }

    private static String sources(String module) {
        StringBuilder all = new StringBuilder();
        try (Stream<Path> files = Files.walk(Manifests.root().resolve(module).resolve("src/main/java"))) {
            files.filter(f -> f.toString().endsWith(".java")).sorted().forEach(f -> all.append(Manifests.read(f)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return all.toString();
    }

    /** FFmpeg's peak for a workload at its concurrency, in bytes, and how it was counted. */
    record Ffmpeg(long bytes, String why) {
    }

    static Ffmpeg ffmpeg(ServiceConfig config, Map<String, String> env, double cpu) {
        if (!"media-runtime".equals(runtime(config.module()))) {
            return new Ffmpeg(0, "no FFmpeg in its image");
        }
        Map<String, Long> peaks = measured("FFmpeg run");
        String code = sources(config.module());
        long total = 0;
        List<String> why = new ArrayList<>();
        int processes = (int) Math.ceil(cpu);
        if (config.rendersJobs()) {
            int slots = Integer.parseInt(config.resolve("pmedia.media.render.lanes.slots", env, "1"));
            total += (long) slots * processes * peaks.get("render") * MIB;
            why.add(slots + " render(s) x " + processes + " pieces x " + peaks.get("render") + " MiB");
        } else if (code.contains("class TemplatePreviews")) {
            // Previews have no bound of their own in the code: counted at one in flight per core (FFmpeg is CPU-bound).
            total += (long) processes * peaks.get("preview") * MIB;
            why.add(processes + " previews x " + peaks.get("preview") + " MiB");
        }
        Matcher gifs = Pattern.compile("class EmailGifs[\\s\\S]*?new Semaphore\\((\\d+)\\)").matcher(code);
        if (gifs.find()) {
            int n = Integer.parseInt(gifs.group(1));
            total += n * peaks.get("email GIF") * MIB;
            why.add(n + " email GIF(s) x " + peaks.get("email GIF") + " MiB");
        }
        return new Ffmpeg(total, String.join(" + ", why));
    }

    /** An explicit -Xmx of the container's JVM options, in bytes. */
    static Optional<Long> explicitHeap(Map<String, String> env) {
        for (String variable : List.of("JDK_JAVA_OPTIONS", "JAVA_TOOL_OPTIONS")) {
            Matcher m = Pattern.compile("-Xmx(\\d+)([kKmMgG]?)").matcher(env.getOrDefault(variable, ""));
            if (m.find()) {
                return Optional.of(ServiceConfig.bytes(m.group(1) + m.group(2).toUpperCase(Locale.ROOT)));
            }
        }
        return Optional.empty();
    }

    static List<String> jvmProblems(Manifests m) {
        List<String> problems = new ArrayList<>();
        Map<String, Long> nonHeap = measured("module");
        // a module measured under a load (bench/memory/native.sh, and the end-to-end stage of ./pmedia test:
        // scripts/memory-check.sh) counts with the largest of its figures
        measured("module under load").forEach((module, loaded) -> nonHeap.merge(module, loaded, Math::max));
        measured("module in ./pmedia test").forEach((module, loaded) -> nonHeap.merge(module, loaded, Math::max));
        for (ObjectNode node : m.ofKind("Deployment")) {
            Deployment d = TypedModels.bind(node, Deployment.class);
            String name = d.getMetadata().getName();
            Container c = WorkloadTest.container(d);
            ServiceConfig config = ServiceConfig.of(name);
            Map<String, String> env = NetworkPolicyTest.environment(m, c);
            long limit = bytes(c.getResources().getLimits().get("memory"));
            long heap = explicitHeap(env).orElse((long) (limit * imageHeapShare()));
            Long outside = nonHeap.get(config.module());
            if (outside == null) {
                problems.add(name + ": docs/performance.md has no measurement of " + config.module());
                continue;
            }
            long rest = (long) (outside * MIB * NON_HEAP_HEADROOM);
            Ffmpeg ffmpeg = ffmpeg(config, env, cores(c.getResources().getLimits().get("cpu")));
            long need = heap + rest + ffmpeg.bytes();
            if (need > limit) {
                problems.add(String.format("%s: heap %d MiB + outside the heap %d MiB + FFmpeg %d MiB (%s) = %d MiB,"
                        + " over its limit of %d MiB", name, heap / MIB, rest / MIB, ffmpeg.bytes() / MIB,
                        ffmpeg.why(), need / MIB, limit / MIB));
            }
            Quantity request = c.getResources().getRequests().get("memory");
            if (request == null || bytes(request) != limit) {
                problems.add(name + ": requests " + request + " of memory, limited to " + limit / MIB + " MiB");
            }
        }
        return problems;
    }

    /** A PostgreSQL memory parameter (8kB, 4MB, 1GB; a plain number of shared_buffers is 8 kB pages). */
    static long pgBytes(String value, long unit) {
        Matcher m = Pattern.compile("^(\\d+)\\s*(kB|MB|GB|TB)?$").matcher(value.strip());
        assertThat(m.matches()).as("a PostgreSQL size: %s", value).isTrue();
        long n = Long.parseLong(m.group(1));
        return m.group(2) == null ? n * unit : switch (m.group(2)) {
            case "kB" -> n << 10;
            case "MB" -> n << 20;
            case "GB" -> n << 30;
            default -> n << 40;
        };
    }

    static List<String> postgresProblems(Manifests m) {
        List<String> problems = new ArrayList<>();
        long backend = measured("PostgreSQL").get("backend") * MIB;
        for (ObjectNode cluster : m.ofKind("Cluster")) {
            JsonNode p = cluster.path("spec").path("postgresql").path("parameters");
            long shared = pgBytes(p.path("shared_buffers").asText("128MB"), 8 << 10);
            long work = pgBytes(p.path("work_mem").asText("4MB"), 1 << 10);
            long maintenance = pgBytes(p.path("maintenance_work_mem").asText("64MB"), 1 << 10);
            int connections = p.path("max_connections").asInt(100);
            int autovacuum = p.path("autovacuum_max_workers").asInt(3);
            long need = (long) ((shared + connections * (work + backend) + autovacuum * maintenance)
                    * POSTGRES_HEADROOM);
            long limit = bytes(cluster.path("spec").path("resources").path("limits").path("memory").asText("0"));
            if (need > limit) {
                problems.add(String.format("Cluster %s: shared_buffers %d MiB + %d connections x (work_mem %d MiB +"
                        + " backend %d MiB) + %d autovacuum workers x %d MiB, +%d %% = %d MiB, over its limit of %d"
                        + " MiB", Manifests.name(cluster), shared / MIB, connections, work / MIB, backend / MIB,
                        autovacuum, maintenance / MIB, Math.round((POSTGRES_HEADROOM - 1) * 100), need / MIB,
                        limit / MIB));
            }
        }
        return problems;
    }

    /** A disk cache a module's code keeps: its property, its default size. */
    record Cache(String property, String size) {
    }

    /**
     * The {@code MemorySize} cache bounds of a module's {@code @ConfigMapping} interfaces (methods named
     * {@code ...cacheSize()} with a {@code @WithDefault}), each under its property name: the mapping's prefix, the
     * nested interfaces' names and the method's, in kebab case.
     */
    static List<Cache> caches(String module) {
        List<Cache> caches = new ArrayList<>();
        try (Stream<Path> files = Files.walk(Manifests.root().resolve(module).resolve("src/main/java"))) {
            for (Path f : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                String source = Manifests.read(f);
                Matcher prefix = Pattern.compile("@ConfigMapping\\(prefix = \"([^\"]+)\"\\)").matcher(source);
                if (!prefix.find()) {
                    continue;
                }
                Deque<String[]> nesting = new ArrayDeque<>();
                int depth = 0;
                String withDefault = null;
                for (String line : source.lines().toList()) {
                    String t = line.strip();
                    Matcher iface = Pattern.compile("^(?:public )?interface (\\w+)").matcher(t);
                    Matcher def = Pattern.compile("^@WithDefault\\(\"([^\"]*)\"\\)").matcher(t);
                    Matcher method = Pattern.compile("MemorySize (\\w*[cC]acheSize)\\(\\);").matcher(t);
                    if (iface.find()) {
                        nesting.push(new String[]{iface.group(1), Integer.toString(depth)});
                    }
                    if (def.find()) {
                        withDefault = def.group(1);
                    } else if (method.find() && withDefault != null) {
                        StringBuilder name = new StringBuilder(prefix.group(1));
                        List<String[]> outer = new ArrayList<>(nesting);
                        java.util.Collections.reverse(outer);
                        outer.stream().skip(1).forEach(n -> name.append('.').append(kebab(n[0])));
                        caches.add(new Cache(name + "." + kebab(method.group(1)), withDefault));
                        withDefault = null;
                    } else if (!t.isEmpty() && !t.startsWith("*") && !t.startsWith("/") && !t.startsWith("@")) {
                        withDefault = null;
                    }
                    depth += count(t, '{') - count(t, '}');
                    while (!nesting.isEmpty() && depth <= Integer.parseInt(nesting.peek()[1])
                            && t.contains("}")) {
                        nesting.pop();
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return caches;
    }

    private static int count(String s, char c) {
        return (int) s.chars().filter(ch -> ch == c).count();
    }

    static String kebab(String camel) {
        return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(Locale.ROOT);
    }

    static List<String> storageProblems(Manifests m) {
        List<String> problems = new ArrayList<>();
        for (ObjectNode node : m.ofKind("Deployment")) {
            Deployment d = TypedModels.bind(node, Deployment.class);
            String name = d.getMetadata().getName();
            Container c = WorkloadTest.container(d);
            ServiceConfig config = ServiceConfig.of(name);
            Map<String, String> env = NetworkPolicyTest.environment(m, c);
            String tmp = c.getVolumeMounts().stream().filter(v -> "/tmp".equals(v.getMountPath())).findFirst()
                    .orElseThrow().getName();
            Quantity size = d.getSpec().getTemplate().getSpec().getVolumes().stream()
                    .filter(v -> v.getName().equals(tmp)).findFirst().orElseThrow().getEmptyDir().getSizeLimit();
            long volume = bytes(size);
            long cached = 0;
            List<String> which = new ArrayList<>();
            for (Cache cache : caches(config.module())) {
                // The render caches (under pmedia.media.render) are filled only where renders run.
                if (cache.property().contains(".render.") && !config.rendersJobs()) {
                    continue;
                }
                long bytes = ServiceConfig.bytes(config.resolve(cache.property(), env, cache.size()));
                cached += bytes;
                which.add(cache.property() + " " + bytes / MIB + " MiB");
            }
            if (cached > volume * CACHE_SHARE) {
                problems.add(String.format("%s: its caches (%s) take %d MiB of its %d MiB /tmp, more than %d %%", name,
                        String.join(", ", which), cached / MIB, volume / MIB, Math.round(CACHE_SHARE * 100)));
            }
            Quantity requested = c.getResources().getRequests().get("ephemeral-storage");
            if (requested == null || bytes(requested) < volume) {
                problems.add(name + ": requests " + requested + " of ephemeral storage for a /tmp of " + size);
            }
        }
        return problems;
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void everyLimitHoldsTheHeapWhatTheJvmUsesBesideItAndFfmpeg(String overlay) {
        assertThat(jvmProblems(Manifests.of(overlay))).as(overlay).isEmpty();
    }

    /** The native allocator's arenas: the figures were measured with the local stack's setting, so the images'. */
    static String arenas(Path file, String pattern) {
        Matcher m = Pattern.compile(pattern).matcher(Manifests.read(Manifests.root().resolve(file)));
        assertThat(m.find()).as("%s sets MALLOC_ARENA_MAX", file).isTrue();
        return m.group(1);
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void everyJvmAllocatesNativeMemoryAsTheMeasuredOnesDid(String overlay) {
        String local = arenas(Path.of("scripts/lib/services.sh"), "\"MALLOC_ARENA_MAX=(\\d+)\"");
        assertThat(arenas(Path.of("deploy/docker/Dockerfile"), "MALLOC_ARENA_MAX=(\\d+)")).isEqualTo(local);
        Manifests m = Manifests.of(overlay);
        for (ObjectNode node : m.ofKind("Deployment")) {
            Deployment d = TypedModels.bind(node, Deployment.class);
            Map<String, String> env = NetworkPolicyTest.environment(m, WorkloadTest.container(d));
            assertThat(env.getOrDefault("MALLOC_ARENA_MAX", local)).as(d.getMetadata().getName()).isEqualTo(local);
        }
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void postgresHoldsItsBuffersAndEveryConnection(String overlay) {
        assertThat(postgresProblems(Manifests.of(overlay))).as(overlay).isEmpty();
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void everyCacheFitsItsVolumeAndThePodRequestsIt(String overlay) {
        assertThat(caches("media-service")).extracting(Cache::property)
                .contains("pmedia.media.assets.cache-size", "pmedia.media.render.segment-cache-size");
        assertThat(storageProblems(Manifests.of(overlay))).as(overlay).isEmpty();
    }

    private static void set(List<ObjectNode> objects, String id, String pointer, String value) {
        objects.stream().filter(o -> Manifests.id(o).equals(id)).forEach(o -> {
            ObjectNode parent = (ObjectNode) o.at(pointer.substring(0, pointer.lastIndexOf('/')));
            parent.put(pointer.substring(pointer.lastIndexOf('/') + 1), value);
        });
    }

    private static void removeEnv(List<ObjectNode> objects, String deployment, String variable) {
        objects.stream().filter(o -> Manifests.id(o).equals("Deployment " + deployment)).forEach(o -> {
            ArrayNode env = (ArrayNode) o.at("/spec/template/spec/containers/0/env");
            for (int i = 0; i < env.size(); i++) {
                if (env.get(i).path("name").asText().equals(variable)) {
                    env.remove(i);
                    return;
                }
            }
            throw new AssertionError(deployment + " has no " + variable);
        });
    }

    /** The defects of issue 38, put back one at a time: each fails its check. */
    @Test
    void theChecksBite() {
        Manifests prod = Manifests.of("prod");
        // The 512Mi of before: 154 MiB beside a 70 % heap, for a JVM measured at 185 MiB there.
        assertThat(jvmProblems(prod.changed(o -> {
            set(o, "Deployment gateway", "/spec/template/spec/containers/0/resources/limits/memory", "512Mi");
            set(o, "Deployment gateway", "/spec/template/spec/containers/0/resources/requests/memory", "512Mi");
        }))).singleElement().asString().startsWith("gateway: heap 358 MiB");
        // A render worker whose heap is 70 % of its limit again: FFmpeg's two pieces do not fit beside it.
        assertThat(jvmProblems(prod.changed(o -> removeEnv(o, "media-worker", "JAVA_TOOL_OPTIONS"))))
                .singleElement().asString().startsWith("media-worker: heap 1612 MiB").contains("2 pieces x 452 MiB");
        // A request below the limit.
        assertThat(jvmProblems(prod.changed(o -> set(o, "Deployment vton",
                "/spec/template/spec/containers/0/resources/requests/memory", "512Mi"))))
                .containsExactly("vton: requests 512Mi of memory, limited to 1024 MiB");
        // PostgreSQL as before: 2Gi with 512 MB of buffers for 500 connections.
        assertThat(postgresProblems(prod.changed(o -> {
            set(o, "Cluster pmedia-db", "/spec/resources/limits/memory", "2Gi");
            set(o, "Cluster pmedia-db", "/spec/postgresql/parameters/shared_buffers", "512MB");
            set(o, "Cluster pmedia-db", "/spec/postgresql/parameters/max_connections", "500");
        }))).singleElement().asString().startsWith("Cluster pmedia-db: shared_buffers 512 MiB + 500 connections");
        // media-api's asset cache at the code's default (2G) in its 512Mi /tmp.
        assertThat(storageProblems(prod.changed(o -> removeEnv(o, "media-api", "PMEDIA_MEDIA_ASSETS_CACHE_SIZE"))))
                .singleElement().asString()
                .startsWith("media-api: its caches (pmedia.media.assets.cache-size 2048 MiB)");
        // No ephemeral-storage request.
        assertThat(storageProblems(prod.changed(o -> o.stream().filter(x -> Manifests.id(x).equals(
                "Deployment batch")).forEach(
                        x -> ((ObjectNode) x.at("/spec/template/spec/containers/0/resources"
                                + "/requests")).remove("ephemeral-storage")))))
                .containsExactly("batch: requests null of ephemeral storage for a /tmp of 512Mi");
        // A measurement that grows (say, a JVM upgrade) fails the limits it no longer fits: the table is the source.
        assertThat(BigDecimal.valueOf(NON_HEAP_HEADROOM)).isGreaterThan(BigDecimal.ONE);
    }
}
