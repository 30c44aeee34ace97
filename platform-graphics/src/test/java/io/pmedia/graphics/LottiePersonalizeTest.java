package io.pmedia.graphics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import io.pmedia.graphics.draw.Fit;
import io.pmedia.graphics.lottie.LottieException;
import io.pmedia.graphics.lottie.LottieFile;
import io.pmedia.graphics.lottie.LottiePainter;
import io.pmedia.graphics.text.FontChain;

/**
 * A template's values change the drawn pixels where they should: a text layer by its name, a text slot, a colour
 * slot; texts of every script and of the longest length draw in bounded time, and longer ones are refused.
 */
class LottiePersonalizeTest {

    static final Path MOTIONS = Path.of("../deploy/local/motions");
    static final int W = 1280;
    static final int H = 720;
    static final FontChain FONTS = FontChain.of(Map.of());

    static byte[] sample(String name) throws Exception {
        return Files.readAllBytes(MOTIONS.resolve(name + ".json"));
    }

    /** The file's frame {@code frame} drawn full size over black, as RGBA. */
    static byte[] draw(String json, long frame) {
        LottieLayer layer = new LottieLayer(new Timing(0, 100, 0, 0), json, 0, 0, W, H, Fit.CONTAIN, 1,
                false, null);
        try (FrameRenderer renderer = new FrameRenderer(new Scene(W, H, 30, List.of(layer)), FONTS)) {
            return renderer.render(frame);
        }
    }

    /** How many pixels of the region differ between two frames. */
    static int changed(byte[] a, byte[] b, int left, int top, int right, int bottom) {
        int count = 0;
        for (int y = top; y < bottom; y++) {
            for (int x = left; x < right; x++) {
                int i = (y * W + x) * 4;
                // bytes are signed: each channel as 0-255, and alpha too (straight alpha: a transparent pixel's
                // colour says nothing)
                int delta = 0;
                for (int c = 0; c < 4; c++) {
                    delta += Math.abs((a[i + c] & 0xff) - (b[i + c] & 0xff));
                }
                if (delta > 30) {
                    count++;
                }
            }
        }
        return count;
    }

    @Test
    void aTextLayerByNameChangesTheTextAndNothingElse() throws Exception {
        byte[] file = sample("counter-ring");
        byte[] before = draw(LottieFile.personalize(file, Map.of(), Map.of(), Map.of()), 75);
        byte[] after = draw(LottieFile.personalize(file, Map.of("VALUE", "42"), Map.of(), Map.of()), 75);
        assertThat(changed(before, after, 440, 290, 840, 400)).as("the number's box").isGreaterThan(1000);
        assertThat(changed(before, after, 0, 0, W, 250)).as("above the number").isZero();
        assertThat(changed(before, after, 0, 600, W, H)).as("the caption").isZero();
    }

    @Test
    void aTextSlotTakesItsText() throws Exception {
        ObjectMapper json = new ObjectMapper();
        ObjectNode root = (ObjectNode) json.readTree(sample("check-seal"));
        ObjectNode document = (ObjectNode) root.at("/layers/0/t/d");
        assertThat(root.at("/layers/0/nm").asText()).isEqualTo("ORDER");
        root.withObjectProperty("slots").putObject("order-line").putObject("p").set("k", document.get("k").deepCopy());
        document.remove("k");
        document.put("sid", "order-line");
        byte[] slotted = json.writeValueAsBytes(root);
        assertThat(LottieFile.check(slotted).slots()).containsEntry("order-line", "text");
        byte[] before = draw(LottieFile.personalize(slotted, Map.of(), Map.of(), Map.of()), 70);
        byte[] after = draw(LottieFile.personalize(slotted, Map.of("order-line", "Order #7 ships today"),
                Map.of(), Map.of()), 70);
        assertThat(changed(before, after, 200, 560, 1080, 660)).as("the order line").isGreaterThan(1000);
        assertThat(changed(before, after, 0, 0, W, 540)).as("the seal").isZero();
        assertThat(changed(before, draw(LottieFile.personalize(sample("check-seal"), Map.of(), Map.of(), Map.of()),
                70), 0, 0, W, H)).as("the slot's own value is the file's text").isZero();
    }

    @Test
    void aColourSlotRecoloursWhatUsesIt() throws Exception {
        byte[] file = sample("counter-ring");
        byte[] red = draw(LottieFile.personalize(file, Map.of(), Map.of("accent", "#ff0000"), Map.of()), 75);
        byte[] green = draw(LottieFile.personalize(file, Map.of(), Map.of(), Map.of()), 75);
        assertThat(reddish(red)).as("the ring in red").isGreaterThan(5000);
        assertThat(reddish(green)).isZero();
        assertThat(changed(red, green, 520, 290, 760, 400)).as("the number inside the ring").isZero();
    }

    static int reddish(byte[] rgba) {
        int count = 0;
        for (int i = 0; i < rgba.length; i += 4) {
            if ((rgba[i] & 0xff) > 200 && (rgba[i + 1] & 0xff) < 60 && (rgba[i + 2] & 0xff) < 60) {
                count++;
            }
        }
        return count;
    }

    @Test
    void textsOfEveryScriptAreShapedWithTheFallbackChainInBoundedTime() throws Exception {
        byte[] file = sample("confetti-burst");
        Map<String, String> texts = new LinkedHashMap<>();
        texts.put("arabic", "محمد عبد الله");
        texts.put("devanagari", "श्रुति क्षत्रिय");
        texts.put("chinese", "王伟 你好");
        texts.put("emoji", "José 🎉🚀");
        texts.put("longest", "Ünïcødé नमस्ते ".repeat(LottieFile.MAX_TEXT / 15));
        byte[] empty = draw(LottieFile.personalize(file, Map.of("NAME", ""), Map.of(), Map.of()), 75);
        // the control: the document's family as DejaVu, no chain behind it (DejaVu has Arabic, not the others)
        FontChain none = FontChain.of(Map.of("Noto Sans", TextShapingTest.DEJAVU), false);
        for (Map.Entry<String, String> text : texts.entrySet()) {
            String json = LottieFile.personalize(file, Map.of("NAME", text.getValue()), Map.of(), Map.of());
            byte[] drawn = assertTimeoutPreemptively(Duration.ofSeconds(20), () -> draw(json, 75));
            assertThat(changed(empty, drawn, 0, 540, W, H)).as("%s drawn", text.getKey()).isGreaterThan(200);
            // Skottie's own shaper here has no fallback and shapes no complex script: the engine shapes it
            try (LottiePainter painter = new LottiePainter(json, FONTS);
                    LottiePainter boxes = new LottiePainter(json, none)) {
                assertThat(painter.shapedTexts()).as("%s shaped by the engine", text.getKey()).isEqualTo(1);
                assertThat(painter.unresolvedGlyphs()).as("%s without boxes", text.getKey()).isZero();
                if (!text.getKey().equals("arabic")) {
                    assertThat(boxes.unresolvedGlyphs()).as("%s without the chain", text.getKey()).isPositive();
                }
            }
        }
        String latin = LottieFile.personalize(file, Map.of("NAME", "Happy birthday, Zoë!"), Map.of(), Map.of());
        try (LottiePainter painter = new LottiePainter(latin, FONTS)) {
            assertThat(painter.shapedTexts()).as("Latin in a font that has it stays with Skottie").isZero();
        }
    }

    @Test
    void aShapedTextKeepsItsMaskAndMotion() throws Exception {
        byte[] file = sample("check-seal");
        String arabic = LottieFile.personalize(file, Map.of("ORDER", "طلبك رقم ١٠٤٤٢ مؤكد"), Map.of(), Map.of());
        String none = LottieFile.personalize(file, Map.of("ORDER", ""), Map.of(), Map.of());
        try (LottiePainter painter = new LottiePainter(arabic, FONTS)) {
            assertThat(painter.shapedTexts()).isEqualTo(1);
            assertThat(painter.unresolvedGlyphs()).isZero();
        }
        // the mask wipes the line in from the left between frames 30 and 54
        assertThat(changed(draw(none, 31), draw(arabic, 31), 0, 560, W, 680)).as("frame 31").isLessThan(300);
        assertThat(changed(draw(none, 36), draw(arabic, 36), 640, 560, W, 680)).as("frame 36, right").isZero();
        assertThat(changed(draw(none, 36), draw(arabic, 36), 0, 560, 640, 680)).as("frame 36, left")
                .isGreaterThan(500);
        assertThat(changed(draw(none, 70), draw(arabic, 70), 640, 560, W, 680)).as("frame 70, right")
                .isGreaterThan(500);
    }

    @Test
    void aTextOverTheLimitOrANameThatIsNotThereIsRefused() throws Exception {
        byte[] file = sample("counter-ring");
        assertThatThrownBy(() -> LottieFile.personalize(file, Map.of("VALUE", "x".repeat(10_000)), Map.of(),
                Map.of())).isInstanceOf(LottieException.class).hasMessageContaining("10000 characters");
        String unnamed = LottieCheckTest.file("{\"ty\":5,\"ip\":0,\"op\":30,\"st\":0,\"ks\":{},\"t\":{\"d\":{\"k\":["
                + "{\"s\":{\"s\":20,\"f\":\"x\",\"t\":\"hi\"},\"t\":0}]}}}", "");
        assertThatThrownBy(() -> LottieFile.personalize(unnamed.getBytes(StandardCharsets.UTF_8), Map.of("NOPE",
                "x"), Map.of(), Map.of())).as("a text layer without a name").isInstanceOf(LottieException.class);
        assertThatThrownBy(() -> LottieFile.personalize(file, Map.of("NOPE", "x"), Map.of(), Map.of()))
                .isInstanceOf(LottieException.class).hasMessageContaining("'NOPE'");
        assertThatThrownBy(() -> LottieFile.personalize(file, Map.of(), Map.of("accent", "red"), Map.of()))
                .isInstanceOfSatisfying(LottieException.class, e -> assertThat(e.pointer()).isEqualTo(
                        "/slots/accent"));
    }

    @Test
    void anImageAssetIsEmbeddedAndDrawnBetweenTheLayersAboveAndBelowIt() throws Exception {
        // a 200x100 file: a blue bar on top over the left of an 80x40 image centred at (100, 50), over green
        String json = LottieCheckTest.file(box("0,0,1", 60, 30, 40, 40) + ","
                + LottieCheckTest.imageLayer("photo").replace("\"ks\":{}", "\"ks\":{\"p\":{\"a\":0,\"k\":[100,50]},"
                        + "\"a\":{\"a\":0,\"k\":[40,20]}}")
                + "," + box("0,1,0", 0, 0, 200, 100),
                "{\"id\":\"photo\",\"w\":80,\"h\":40,\"u\":\"images/\",\"p\":\"img_0.png\",\"e\":0}");
        byte[] file = json.getBytes(StandardCharsets.UTF_8);
        assertThat(LottieFile.check(file).warnings()).hasSize(1); // the placeholder, until the template fills it
        byte[] drawn = draw(LottieFile.personalize(file, Map.of(), Map.of(), Map.of("photo", redPng())), 10);
        // fitted contain: 200x100 at 6.4 times, 40 pixels from the top
        assertThat(pixel(drawn, 110, 50)).as("the image").isEqualTo(0xff0000);
        assertThat(pixel(drawn, 70, 50)).as("the bar above it").isEqualTo(0x0000ff);
        assertThat(pixel(drawn, 20, 20)).as("the ground below it").isEqualTo(0x00ff00);
        byte[] empty = draw(LottieFile.personalize(file, Map.of(), Map.of(), Map.of()), 10);
        assertThat(pixel(empty, 110, 50)).as("no image given").isEqualTo(0x00ff00);
    }

    @Test
    void anOpenMaskMakesNoTransparencyAsInAfterEffectsAndLottieWeb() throws Exception {
        // a 200x100 file: a blue box masked to (20,20)-(100,80), then by an open line from (60,10) through (150,50)
        // to (60,90) in difference mode (After Effects exports such a line as a path for a stroke); under it green,
        // and a red box whose only mask is an open line
        String masked = box("0,0,1", 0, 0, 200, 100).replace("\"ks\":{}", "\"ks\":{},\"hasMask\":true,"
                + "\"masksProperties\":[" + mask("a", true, "[20,20],[100,20],[100,80],[20,80]") + ","
                + mask("f", false, "[60,10],[150,50],[60,90]") + "]");
        String lined = box("1,0,0", 160, 60, 40, 40).replace("\"ks\":{}", "\"ks\":{},\"hasMask\":true,"
                + "\"masksProperties\":[" + mask("a", false, "[170,70],[190,90]") + "]");
        String json = LottieCheckTest.file(masked + "," + lined + "," + box("0,1,0", 0, 0, 200, 100), "");
        byte[] drawn = draw(LottieFile.personalize(json.getBytes(StandardCharsets.UTF_8), Map.of(), Map.of(),
                Map.of()), 10);
        assertThat(pixel(drawn, 40, 50)).as("inside the closed mask only").isEqualTo(0x0000ff);
        assertThat(pixel(drawn, 90, 50)).as("inside both: a difference with a closed path would cut it out")
                .isEqualTo(0x0000ff);
        assertThat(pixel(drawn, 130, 50)).as("inside the line's hull only: it adds nothing").isEqualTo(0x00ff00);
        assertThat(pixel(drawn, 195, 65)).as("a layer whose only mask is open is not cropped").isEqualTo(0xff0000);
    }

    @Test
    void embeddedLettersTurnAboutTheGroupingAlignmentAsInLottieWeb() throws Exception {
        // the 200x100 file: an "I" of embedded glyphs, 10x35 at size 50, on the baseline at (100,70); its grouping
        // alignment is -50 %, which lottie-web puts 0.5 x 0.857 x 50 = 21.4 above the baseline, at y 48.6
        String turned = LottieFile.personalize(letter(180).getBytes(StandardCharsets.UTF_8), Map.of(), Map.of(),
                Map.of());
        byte[] drawn = draw(turned, 10);
        // turned half a circle about y 48.6, the letter spans y 27.2 to 62.2; about its baseline (Skottie's point
        // for a font without ascent) it would hang from y 70 down out of the file
        assertThat(pixel(drawn, 105, 45)).as("turned about the alignment point").isEqualTo(0xffffff);
        assertThat(pixel(drawn, 105, 80)).as("not about the baseline").isEqualTo(0x000000);

        byte[] still = draw(LottieFile.personalize(letter(0).getBytes(StandardCharsets.UTF_8), Map.of(), Map.of(),
                Map.of()), 10);
        assertThat(pixel(still, 105, 40)).as("the letter at rest stays where it is").isEqualTo(0xffffff);
        assertThat(pixel(still, 105, 68)).isEqualTo(0xffffff);
        assertThat(pixel(still, 105, 30)).isEqualTo(0x000000);
        assertThat(pixel(still, 105, 75)).isEqualTo(0x000000);
        assertThat(turned).as("the player is given zero alignment and lowered glyphs of a copy of the font")
                .contains("\"a\":{\"a\":0,\"k\":[0,0.0]}").contains("Box (anchor 42.840)");
    }

    /** A file of one white "I" of embedded glyphs whose text animator turns every letter by {@code degrees}. */
    static String letter(int degrees) {
        String zeros = "[[0,0],[0,0],[0,0],[0,0]]";
        String glyph = "{\"ch\":\"I\",\"size\":50,\"style\":\"Regular\",\"w\":20,\"fFamily\":\"Box\",\"data\":{\"shapes\":"
                + "[{\"ty\":\"gr\",\"it\":[{\"ty\":\"sh\",\"ks\":{\"a\":0,\"k\":{\"i\":" + zeros + ",\"o\":" + zeros
                + ",\"v\":[[0,0],[20,0],[20,-70],[0,-70]],\"c\":true}}}]}]}}";
        String animator = "{\"nm\":\"turn\",\"s\":{\"t\":0,\"xe\":{\"a\":0,\"k\":0},\"ne\":{\"a\":0,\"k\":0},"
                + "\"a\":{\"a\":0,\"k\":100},\"b\":1,\"rn\":0,\"sh\":1,\"r\":1},\"a\":{\"r\":{\"a\":0,\"k\":" + degrees
                + "}}}";
        String text = "{\"ty\":5,\"ip\":0,\"op\":30,\"st\":0,\"ks\":{\"p\":{\"a\":0,\"k\":[100,70,0]}},\"t\":{\"d\":"
                + "{\"k\":[{\"s\":{\"s\":50,\"f\":\"Box-Regular\",\"t\":\"I\",\"j\":0,\"tr\":0,\"lh\":60,\"ls\":0,"
                + "\"fc\":[1,1,1]},\"t\":0}]},\"p\":{},\"m\":{\"g\":1,\"a\":{\"a\":0,\"k\":[0,-50]}},\"a\":["
                + animator + "]}}";
        return "{\"v\":\"5.12.2\",\"fr\":30,\"ip\":0,\"op\":30,\"w\":200,\"h\":100,\"assets\":[],\"fonts\":{\"list\":"
                + "[{\"fName\":\"Box-Regular\",\"fFamily\":\"Box\",\"fStyle\":\"Regular\",\"ascent\":75}]},"
                + "\"chars\":[" + glyph + "],\"layers\":[" + text + "]}";
    }

    /** A static mask of {@code mode} through the points {@code points} ("[x,y],..."), closed or open. */
    static String mask(String mode, boolean closed, String points) {
        String zeros = String.join(",", java.util.Collections.nCopies(points.split("\\],\\[").length, "[0,0]"));
        return "{\"mode\":\"" + mode + "\",\"inv\":false,\"o\":{\"a\":0,\"k\":100},\"x\":{\"a\":0,\"k\":0},"
                + "\"pt\":{\"a\":0,\"k\":{\"i\":[" + zeros + "],\"o\":[" + zeros + "],\"v\":[" + points + "],\"c\":"
                + closed + "}}}";
    }

    @Test
    void anImageThatIsNotAPngOrJpegIsRefused() {
        String json = LottieCheckTest.file(LottieCheckTest.imageLayer("photo"),
                "{\"id\":\"photo\",\"w\":10,\"h\":10,\"u\":\"images/\",\"p\":\"img_0.png\",\"e\":0}");
        assertThatThrownBy(() -> LottieFile.personalize(json.getBytes(StandardCharsets.UTF_8), Map.of(), Map.of(),
                Map.of("photo", "<svg/>".getBytes(StandardCharsets.UTF_8)))).isInstanceOf(LottieException.class)
                .hasMessageContaining("not a PNG or JPEG");
    }

    @Test
    void aPictureOfMoreThanFortyMillionPixelsIsRefusedEmbeddedGivenOrRegisteredBefore() throws Exception {
        // a 60000x60000 PNG header in 70 bytes: 3.6 billion pixels, 14 GB once decoded
        byte[] bomb = PictureLayerTest.pngHeader(60_000, 60_000);
        String slot = LottieCheckTest.file(LottieCheckTest.imageLayer("photo"),
                "{\"id\":\"photo\",\"w\":80,\"h\":40,\"u\":\"images/\",\"p\":\"img_0.png\",\"e\":0}");
        assertThatThrownBy(() -> LottieFile.personalize(slot.getBytes(StandardCharsets.UTF_8), Map.of(), Map.of(),
                Map.of("photo", bomb))).isInstanceOfSatisfying(LottieException.class, e -> {
                    assertThat(e.pointer()).isEqualTo("/assets/0");
                    assertThat(e.reason()).isEqualTo("the image for asset 'photo' is a 60000x60000 picture: at most"
                            + " 40,000,000 pixels");
                });
        assertThat(LottieFile.personalize(slot.getBytes(StandardCharsets.UTF_8), Map.of(), Map.of(),
                Map.of("photo", PictureLayerTest.pngHeader(8_000, 5_000)))).as("40,000,000 exactly")
                .contains("data:image/png;base64,");

        String embedded = slot.replace("\"u\":\"images/\",\"p\":\"img_0.png\",\"e\":0",
                "\"u\":\"\",\"p\":\"data:image/png;base64," + Base64.getEncoder().encodeToString(bomb) + "\",\"e\":1");
        byte[] file = embedded.getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> LottieFile.check(file)).as("registered").isInstanceOfSatisfying(
                LottieException.class, e -> {
                    assertThat(e.pointer()).isEqualTo("/assets/0/p");
                    assertThat(e.reason()).isEqualTo("the embedded image of asset 'photo' is a 60000x60000 picture:"
                            + " at most 40,000,000 pixels");
                });
        // a file registered before the bound: refused when it is personalized for a render, and by the engine
        // itself (its header read before any pixel)
        assertThatThrownBy(() -> LottieFile.personalize(file, Map.of(), Map.of(), Map.of()))
                .isInstanceOfSatisfying(LottieException.class, e -> assertThat(e.pointer()).isEqualTo("/assets/0/p"));
        assertThatThrownBy(() -> draw(embedded, 10)).isInstanceOfSatisfying(LottieException.class,
                e -> assertThat(e.reason()).contains("60000x60000 picture"));
    }

    /** A shape layer: a rectangle of colour {@code rgb} ("r,g,b" from 0 to 1). */
    static String box(String rgb, double left, double top, double width, double height) {
        return "{\"ty\":4,\"ip\":0,\"op\":30,\"st\":0,\"ks\":{},\"shapes\":[{\"ty\":\"gr\",\"it\":[{\"ty\":\"rc\","
                + "\"p\":{\"a\":0,\"k\":[" + (left + width / 2) + "," + (top + height / 2) + "]},\"s\":{\"a\":0,\"k\":["
                + width + "," + height + "]},\"r\":{\"a\":0,\"k\":0}},{\"ty\":\"fl\",\"c\":{\"a\":0,\"k\":[" + rgb
                + ",1]},\"o\":{\"a\":0,\"k\":100}},{\"ty\":\"tr\"}]}]}";
    }

    static byte[] redPng() throws Exception {
        java.awt.image.BufferedImage red = new java.awt.image.BufferedImage(16, 8,
                java.awt.image.BufferedImage.TYPE_INT_RGB);
        for (int y = 0; y < 8; y++) {
            for (int x = 0; x < 16; x++) {
                red.setRGB(x, y, 0xff0000);
            }
        }
        java.io.ByteArrayOutputStream png = new java.io.ByteArrayOutputStream();
        javax.imageio.ImageIO.write(red, "png", png);
        return png.toByteArray();
    }

    /** The RGB at a point of the 200x100 file, as drawn fitted in the frame. */
    static int pixel(byte[] rgba, double x, double y) {
        int i = ((int) (40 + y * 6.4) * W + (int) (x * 6.4)) * 4;
        return (rgba[i] & 0xff) << 16 | (rgba[i + 1] & 0xff) << 8 | (rgba[i + 2] & 0xff);
    }
}
