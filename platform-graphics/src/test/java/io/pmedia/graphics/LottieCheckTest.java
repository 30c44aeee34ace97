package io.pmedia.graphics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.ThrowingSupplier;

import io.pmedia.graphics.lottie.LottieCheck;
import io.pmedia.graphics.lottie.LottieException;
import io.pmedia.graphics.lottie.LottieFile;
import io.pmedia.graphics.text.FontChain;

/**
 * Hostile and malformed Lottie files are refused fast with the JSON pointer of what is wrong, and what a file says
 * of itself (size, times, text layers, slots, images, what is not drawn) is read right.
 */
class LottieCheckTest {

    static final Duration FAST = Duration.ofSeconds(5);
    static final Path MOTIONS = Path.of("../deploy/local/motions");

    /** A small valid file whose layers are {@code layers} and assets {@code assets} (JSON array bodies). */
    static String file(String layers, String assets) {
        return "{\"v\":\"5.12.2\",\"fr\":30,\"ip\":0,\"op\":30,\"w\":200,\"h\":100,\"assets\":[" + assets
                + "],\"layers\":[" + layers + "]}";
    }

    static final String NULL_LAYER = "{\"ty\":3,\"ip\":0,\"op\":30,\"st\":0,\"ks\":{}}";

    static LottieException refused(String json) {
        return refused(json.getBytes(StandardCharsets.UTF_8));
    }

    static LottieException refused(byte[] json) {
        return assertTimeoutPreemptively(FAST, (ThrowingSupplier<LottieException>) () -> {
            try {
                LottieFile.check(json);
            } catch (LottieException e) {
                return e;
            }
            throw new AssertionError("accepted");
        });
    }

    @Test
    void aFiftyMegabyteFileIsRefusedBeforeParsing() {
        byte[] huge = new byte[50 * 1024 * 1024];
        Arrays.fill(huge, (byte) '[');
        LottieException e = refused(huge);
        assertThat(e.pointer()).isEmpty();
        assertThat(e.reason()).contains("52428800 bytes").contains(String.valueOf(LottieFile.MAX_BYTES));
    }

    @Test
    void aHundredThousandLayersAreRefused() {
        String layers = String.join(",", java.util.Collections.nCopies(100_000, NULL_LAYER));
        LottieException e = refused(file(layers, ""));
        assertThat(e.pointer()).isEqualTo("/layers");
        assertThat(e.reason()).contains("more than " + LottieFile.MAX_LAYERS + " layers");
    }

    @Test
    void precompsInstantiatedManyTimesCountEachInstance() {
        // 50 layers in a precomp used by 50 layers: 2,550 layers as Skottie builds them, from a 10 kB file
        String inner = String.join(",", java.util.Collections.nCopies(50, NULL_LAYER));
        String refs = String.join(",", java.util.Collections.nCopies(50,
                "{\"ty\":0,\"refId\":\"c\",\"w\":10,\"h\":10,\"ip\":0,\"op\":30,\"st\":0,\"ks\":{}}"));
        LottieException e = refused(file(refs, "{\"id\":\"c\",\"layers\":[" + inner + "]}"));
        assertThat(e.reason()).contains("layers counted over the compositions and each precomp instance");
    }

    @Test
    void repeatersThatMultiplyPastTheLimitAreRefused() {
        String tooMany = file(shapeLayer(repeater(1e9)), "");
        assertThat(refused(tooMany).pointer()).isEqualTo("/layers/0/shapes/0/c");
        // 50 x 50 x 50 copies of one rectangle: each repeater is allowed, what they draw together is not
        String nested = file(shapeLayer("{\"ty\":\"gr\",\"it\":[{\"ty\":\"gr\",\"it\":[" + rect() + "," + repeater(50)
                + "]}," + repeater(50) + "]}," + repeater(50)), "");
        LottieException e = refused(nested);
        assertThat(e.pointer()).isEqualTo("/layers/0");
        assertThat(e.reason()).contains("more than " + LottieFile.MAX_SHAPES + " shapes");
        String star = file(shapeLayer("{\"ty\":\"sr\",\"sy\":1,\"pt\":{\"a\":0,\"k\":1000000},"
                + "\"or\":{\"a\":0,\"k\":10},\"ir\":{\"a\":0,\"k\":5}}"), "");
        assertThat(refused(star).pointer()).isEqualTo("/layers/0/shapes/0/pt");
    }

    @Test
    void aFileAtItsLimitsDrawsInBoundedTime() {
        // 1,900 layers of a rectangle and its fill repeated 4 times: 15,200 shapes, near both limits
        String layer = shapeLayer("{\"ty\":\"gr\",\"it\":[" + rect() + "]}," + repeater(4));
        String json = file(String.join(",", java.util.Collections.nCopies(1_900, layer)), "");
        LottieCheck check = LottieFile.check(bytes(json));
        assertThat(check.width()).isEqualTo(200);
        String played = LottieFile.personalize(bytes(json), Map.of(), Map.of(), Map.of());
        assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            LottieLayer lottie = new LottieLayer(new Timing(0, 1, 0, 0), played, 0, 0, 400, 200, null, 1, false,
                    null);
            try (FrameRenderer renderer = new FrameRenderer(new Scene(400, 200, 30, List.of(lottie)), fonts())) {
                for (int frame = 0; frame < 3; frame++) {
                    assertThat(renderer.render(frame)).isNotEmpty();
                }
            }
        });
    }

    static String shapeLayer(String shapes) {
        return "{\"ty\":4,\"ip\":0,\"op\":30,\"st\":0,\"ks\":{},\"shapes\":[" + shapes + "]}";
    }

    static String rect() {
        return "{\"ty\":\"rc\",\"p\":{\"a\":0,\"k\":[20,20]},\"s\":{\"a\":0,\"k\":[10,10]},\"r\":{\"a\":0,\"k\":0}},"
                + "{\"ty\":\"fl\",\"c\":{\"a\":0,\"k\":[1,0,0,1]},\"o\":{\"a\":0,\"k\":100}}";
    }

    static String repeater(double copies) {
        return "{\"ty\":\"rp\",\"c\":{\"a\":0,\"k\":" + copies + "},\"o\":{\"a\":0,\"k\":0},\"m\":1,"
                + "\"tr\":{\"ty\":\"tr\",\"p\":{\"a\":0,\"k\":[12,0]},\"a\":{\"a\":0,\"k\":[0,0]},"
                + "\"s\":{\"a\":0,\"k\":[100,100]},\"r\":{\"a\":0,\"k\":0},\"so\":{\"a\":0,\"k\":100},"
                + "\"eo\":{\"a\":0,\"k\":100}}}";
    }

    @Test
    void deepPrecompNestingIsRefusedWithThePointerOfTheReference() {
        StringBuilder assets = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            assets.append(i > 0 ? "," : "").append("{\"id\":\"c").append(i).append("\",\"layers\":[")
                    .append(i < 39 ? precompLayer("c" + (i + 1)) : NULL_LAYER).append("]}");
        }
        LottieException e = refused(file(precompLayer("c0"), assets.toString()));
        assertThat(e.reason()).contains("nest more than " + LottieFile.MAX_PRECOMP_DEPTH);
        assertThat(e.pointer()).matches("/assets/\\d+/layers/0/refId");
    }

    @Test
    void aPrecompThatContainsItselfIsRefused() {
        LottieException self = refused(file(precompLayer("a"), "{\"id\":\"a\",\"layers\":[" + precompLayer("a")
                + "]}"));
        assertThat(self.pointer()).isEqualTo("/assets/0/layers/0/refId");
        assertThat(self.reason()).contains("'a' contains itself");
        LottieException cycle = refused(file(precompLayer("a"), "{\"id\":\"a\",\"layers\":[" + precompLayer("b")
                + "]},{\"id\":\"b\",\"layers\":[" + precompLayer("a") + "]}"));
        assertThat(cycle.pointer()).isEqualTo("/assets/1/layers/0/refId");
    }

    @Test
    void aMissingPrecompIsRefused() {
        assertThat(refused(file(precompLayer("nowhere"), "")).pointer()).isEqualTo("/layers/0/refId");
    }

    @Test
    void anImageOutsideTheFileIsRefused() {
        for (String asset : List.of("\"u\":\"https://tracker.example/\",\"p\":\"pixel.png\"",
                "\"u\":\"\",\"p\":\"http://169.254.169.254/latest\"", "\"u\":\"\",\"p\":\"file:///etc/passwd\"",
                "\"u\":\"/etc/\",\"p\":\"passwd\"", "\"u\":\"images/\",\"p\":\"../../secret.png\"",
                "\"u\":\"\",\"p\":\"//cdn.example/a.png\"", "\"u\":\"\",\"p\":\"data:text/html;base64,PGI+\"")) {
            LottieException e = refused(file(imageLayer("i"), "{\"id\":\"i\",\"w\":10,\"h\":10," + asset + "}"));
            assertThat(e.pointer()).as(asset).isEqualTo("/assets/0/p");
        }
    }

    @Test
    void anImageByPlainFileNameIsAPlaceholderWithAWarning() {
        LottieCheck check = LottieFile.check(bytes(file(imageLayer("photo"),
                "{\"id\":\"photo\",\"w\":10,\"h\":10,\"u\":\"images/\",\"p\":\"img_0.png\",\"e\":0}")));
        assertThat(check.imageAssets()).containsExactly("photo");
        assertThat(check.warnings()).anySatisfy(w -> assertThat(w).startsWith("/assets/0/p: "));
    }

    @Test
    void nanAndStringsWhereNumbersGoAreRefusedWithTheirPointer() {
        String nan = file("{\"ty\":3,\"ip\":0,\"op\":30,\"st\":0,\"ks\":{\"o\":{\"a\":0,\"k\":NaN}}}", "");
        assertThat(refused(nan).pointer()).isEqualTo("/layers/0/ks/o/k");
        String text = file("{\"ty\":3,\"ip\":0,\"op\":30,\"st\":0,\"ks\":{\"o\":{\"a\":0,\"k\":\"NaN\"}}}", "");
        assertThat(refused(text).pointer()).isEqualTo("/layers/0/ks/o/k");
        assertThat(refused(text).reason()).contains("a string where a number is needed");
        String keyframe = file("{\"ty\":3,\"ip\":0,\"op\":30,\"st\":0,\"ks\":{\"p\":{\"a\":1,\"k\":[{\"t\":0,"
                + "\"s\":[0,\"Infinity\"]},{\"t\":10,\"s\":[1,1]}]}}}", "");
        assertThat(refused(keyframe).pointer()).isEqualTo("/layers/0/ks/p/k/0/s/1");
        String huge = file("{\"ty\":3,\"ip\":0,\"op\":30,\"st\":0,\"ks\":{\"r\":{\"a\":0,\"k\":1e999}}}", "");
        assertThat(refused(huge).pointer()).isEqualTo("/layers/0/ks/r/k");
        assertThat(refused(file(NULL_LAYER, "").replace("\"fr\":30", "\"fr\":\"30\"")).pointer()).isEqualTo("/fr");
        assertThat(refused(file(NULL_LAYER, "").replace("\"fr\":30", "\"fr\":0")).pointer()).isEqualTo("/fr");
        assertThat(refused(file(NULL_LAYER, "").replace("\"op\":30", "\"op\":0")).pointer()).isEqualTo("/op");
        assertThat(refused(file(NULL_LAYER, "").replace("\"w\":200", "\"w\":9000")).pointer()).isEqualTo("/w");
        assertThat(refused(file(NULL_LAYER, "").replace("\"op\":30", "\"op\":1000000")).reason())
                .contains("lasts");
    }

    @Test
    void deeplyNestedArraysAreRefusedWithoutBlowingTheStack() {
        String deep = "[".repeat(200_000) + "]".repeat(200_000);
        LottieException e = refused(file("{\"ty\":3,\"ip\":0,\"op\":30,\"st\":0,\"ks\":{},\"junk\":" + deep
                + "}", ""));
        assertThat(e.pointer()).startsWith("/layers/0/junk/0/0/0");
        assertThat(e.reason()).contains("nesting");
    }

    @Test
    void whatTheFileSaysOfItselfIsRead() throws Exception {
        LottieCheck check = LottieFile.check(Files.readAllBytes(MOTIONS.resolve("counter-ring.json")));
        assertThat(check.width()).isEqualTo(1280);
        assertThat(check.height()).isEqualTo(720);
        assertThat(check.frameRate()).isEqualTo(30);
        assertThat(check.duration()).isEqualTo(3.0);
        assertThat(check.textLayers()).containsExactly("VALUE", "CAPTION");
        assertThat(check.slots()).containsEntry("accent", "color");
        assertThat(check.warnings()).isEmpty();
        LottieCheck banner = LottieFile.check(Files.readAllBytes(Path.of(
                "../build/node/node_modules/lottie-web/test/animations/banner.json")));
        assertThat(banner.warnings()).anySatisfy(w -> assertThat(w).matches(
                "/assets/\\d+/layers/\\d+: text layer '.*' is drawn by Skottie, .* \\(it is inside a precomp\\)"));
    }

    @Test
    void whatTheEngineDoesNotDrawIsWarnedWithPointers() throws Exception {
        Path corpus = Path.of("../build/node/node_modules/lottie-web/test/animations");
        LottieCheck monster = LottieFile.check(Files.readAllBytes(corpus.resolve("monster.json")));
        assertThat(monster.warnings()).anySatisfy(w -> assertThat(w).matches("/.*/x: an expression is not drawn.*"));
        assertThat(monster.warnings())
                .contains("/layers/1/sy: layer styles are drawn in part at most (shadows only; lottie-web draws none)");
        assertThat(monster.warnings()).last().asString().startsWith("and ").endsWith("more warnings");
        String effects = file(NULL_LAYER.replace("{\"ty\":3", "{\"ef\":[{\"ty\":5,\"nm\":\"Slider\"},"
                + "{\"ty\":22,\"nm\":\"Stroke\",\"en\":1},{\"ty\":29,\"nm\":\"Blur\"}],\"ty\":3"), "");
        assertThat(LottieFile.check(bytes(effects)).warnings()).containsExactly(
                "/layers/0/ef/1: the effect 'Stroke' (type 22) is not drawn");
        String threeD = file(NULL_LAYER.replace("{\"ty\":3", "{\"ddd\":1,\"ty\":3"), "");
        assertThat(LottieFile.check(bytes(threeD)).warnings()).containsExactly(
                "/layers/0/ddd: a 3D layer is drawn flat (no camera, no depth)");
    }

    @Test
    void coloursOfFilesBefore419AreUpgradedAsLottieWebUpgradesThem() throws Exception {
        String old = file("{\"ty\":4,\"ip\":0,\"op\":30,\"st\":0,\"ks\":{},\"shapes\":[{\"ty\":\"gr\",\"it\":["
                + "{\"ty\":\"fl\",\"c\":{\"a\":0,\"k\":[255,127.5,0,255]}}]}]}", "").replace("5.12.2", "4.0.0");
        String upgraded = LottieFile.personalize(bytes(old), Map.of(), Map.of(), Map.of());
        assertThat(upgraded).contains("\"k\":[1.0,0.5,0.0,1.0]").contains("\"v\":\"4.4.18\"");
        String current = LottieFile.personalize(bytes(old.replace("4.0.0", "4.1.9")), Map.of(), Map.of(),
                Map.of());
        assertThat(current).contains("\"k\":[255,127.5,0,255]");
    }

    static String precompLayer(String ref) {
        return "{\"ty\":0,\"refId\":\"" + ref + "\",\"w\":10,\"h\":10,\"ip\":0,\"op\":30,\"st\":0,\"ks\":{}}";
    }

    static String imageLayer(String ref) {
        return "{\"ty\":2,\"refId\":\"" + ref + "\",\"ip\":0,\"op\":30,\"st\":0,\"ks\":{}}";
    }

    static byte[] bytes(String json) {
        return json.getBytes(StandardCharsets.UTF_8);
    }

    static FontChain fonts() {
        return FontChain.of(Map.of());
    }
}
