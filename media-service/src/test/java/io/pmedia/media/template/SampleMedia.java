package io.pmedia.media.template;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * The media of the sample templates (the {@code product-tour} clip and soundtrack), made for tests by the same
 * script function {@code ./pmedia up} uses (scripts/lib/samples.sh), once per build into target/sample-media.
 */
public final class SampleMedia {

    /** The repository: the working directory of a benchmark, the parent of media-service's for a test. */
    private static final Path ROOT = Files.isDirectory(Path.of("scripts", "lib")) ? Path.of("") : Path.of("..");
    private static final Path STATE = ROOT.resolve("media-service/target/sample-media").toAbsolutePath();

    private SampleMedia() {
    }

    /** The directory holding {@code product-tour/background.mp4} and {@code product-tour/soundtrack.m4a}. */
    public static synchronized Path productTour() {
        Path dir = STATE.resolve("samples");
        if (Files.isRegularFile(dir.resolve("product-tour/soundtrack.m4a"))) {
            return dir;
        }
        try {
            Files.createDirectories(STATE);
            ProcessBuilder builder = new ProcessBuilder("bash", "-c",
                    "info() { :; }; die() { echo \"$*\" >&2; exit 1; }; . scripts/lib/samples.sh"
                            + " && generate_sample_media")
                    .directory(ROOT.toAbsolutePath().toFile()).redirectErrorStream(true);
            builder.environment().put("STATE", STATE.toString());
            Process process = builder.start();
            process.getOutputStream().close();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(120, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IllegalStateException("the product-tour media could not be made: " + output);
            }
            return dir;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The local files of the product-tour template's assets, by the URLs {@code assets} (its prefix) makes. */
    public static Map<String, Path> productTourAssets(String assets) {
        Path dir = productTour();
        return Map.of(assets + "/product-tour/background.mp4", dir.resolve("product-tour/background.mp4"),
                assets + "/product-tour/soundtrack.m4a", dir.resolve("product-tour/soundtrack.m4a"));
    }

    /** A sample template file with its placeholders filled in, as {@code ./pmedia up} registers it. */
    public static String sampleTemplate(String name, UUID client, String assets) {
        try {
            return Files.readString(ROOT.resolve("deploy/local/templates/" + name + ".json"))
                    .replace("@PMEDIA_DEMO_CLIENT_ID@", client.toString())
                    .replace("@PMEDIA_SAMPLE_ASSETS@", assets);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The Lottie file of sample motion {@code name} (deploy/local/motions). */
    public static Path motionFile(String name) {
        return ROOT.resolve("deploy/local/motions").resolve(name + ".json");
    }
}
