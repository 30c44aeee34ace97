package io.pmedia.graphics;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.jetbrains.skia.Bitmap;
import org.jetbrains.skia.Canvas;
import org.jetbrains.skia.ColorAlphaType;
import org.jetbrains.skia.ColorType;
import org.jetbrains.skia.ImageInfo;
import org.jetbrains.skia.SurfaceProps;
import org.jetbrains.skia.paragraph.Alignment;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.pmedia.graphics.text.FontChain;
import io.pmedia.graphics.text.TextBlock;
import io.pmedia.graphics.text.TextStyle;

/** Every script is shaped with a font that has it; with no fallback chain, the same names come out as boxes. */
class TextShapingTest {

    static final Path DEJAVU = Path.of("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf");
    static final TextStyle STYLE = new TextStyle("sans", 48, 28, 2, 1.2, 0xff000000, 0);

    @ParameterizedTest
    @ValueSource(strings = {"王伟", "श्रुति", "สมชาย", "José 🎉", "محمد", "שלום", "さくら", "김민준",
            "Hello محمد and שלום!"})
    void everyNameIsShapedWithAFontThatHasIt(String name) {
        FontChain fonts = FontChain.of(Map.of("sans", DEJAVU));

        TextBlock block = TextBlock.lay(name, STYLE, fonts, 1000, Alignment.CENTER);

        assertThat(block.unresolvedGlyphs()).as("glyphs drawn as boxes in '%s'", name).isZero();
        assertThat(block.lines()).isEqualTo(1);
        assertThat(block.size()).isEqualTo(48);
    }

    @ParameterizedTest
    @ValueSource(strings = {"王伟", "श्रुति", "สมชาย", "José 🎉"})
    void withoutTheChainTheSameNamesAreBoxes(String name) {
        FontChain dejavuOnly = FontChain.of(Map.of("sans", DEJAVU), false);

        TextBlock block = TextBlock.lay(name, STYLE, dejavuOnly, 1000, Alignment.CENTER);

        assertThat(block.unresolvedGlyphs()).as("the check sees boxes in '%s'", name).isPositive();
    }

    @Test
    void anEmojiSequenceOrAConjunctIsOneLetterWithItsWholeBox() {
        // a skin tone, a family (joiners), a flag (two regional indicators), an emoji by its variation selector,
        // then a Devanagari conjunct: the JDK's letters cut the first three into pieces with no box of their own
        FontChain fonts = FontChain.of(Map.of("sans", DEJAVU));
        TextBlock block = TextBlock.lay("a\uD83D\uDC4D\uD83C\uDFFD\uD83D\uDC68\u200D\uD83D\uDC69\u200D\uD83D\uDC67"
                + "\uD83C\uDDEF\uD83C\uDDF5\u2764\uFE0F\u0938\u094D\u0924\u0947", STYLE, fonts, 1000, Alignment.START);
        var letters = block.units(io.pmedia.graphics.motion.TextAnimation.Unit.LETTER);
        assertThat(letters).as("a, thumbs up, family, flag, heart, sta").hasSize(6);
        float right = 0;
        for (var letter : letters) {
            assertThat(letter).hasSize(1);
            assertThat(letter.get(0).getLeft()).as("each after the one before, none cut").isGreaterThanOrEqualTo(
                    right - 0.5f);
            assertThat(letter.get(0).getWidth()).isGreaterThan(10);
            right = letter.get(0).getRight();
        }
        var words = block.units(io.pmedia.graphics.motion.TextAnimation.Unit.WORD).stream().flatMap(List::stream)
                .toList();
        for (var letter : letters) {
            float middle = (letter.get(0).getLeft() + letter.get(0).getRight()) / 2;
            assertThat(words).as("a word moves every letter").anyMatch(box -> box.getLeft() <= middle
                    && middle <= box.getRight());
        }
        // a name in Han stays one word (the sample order-confirmation slides "Thanks", ",", "王伟" and "!")
        assertThat(TextBlock.lay("Thanks, \u738b\u4f1f!", STYLE, fonts, 1000, Alignment.START)
                .units(io.pmedia.graphics.motion.TextAnimation.Unit.WORD)).hasSize(4);
    }

    @Test
    void anEmojiIsDrawnInColourWhereTheTemplateFontHasAPlainGlyphForIt() {
        FontChain fonts = FontChain.of(Map.of("sans", DEJAVU));
        // DejaVu Sans has outlines for both: a heart with U+FE0F, and a face whose default presentation is emoji
        for (String emoji : List.of("\u2764\uFE0F", "\uD83D\uDE00", "1\uFE0F\u20E3")) {
            TextBlock block = TextBlock.lay("I " + emoji + " you", STYLE, fonts, 1000, Alignment.START);
            assertThat(colouredPixels(block)).as("coloured pixels of %s", emoji).isGreaterThan(100);
        }
        // text presentation, asked for (U+FE0E) or by default (U+2764 alone): the font's glyph in the text's black
        for (String text : List.of("\u2764\uFE0E", "\u2764", "\u00A9 2026")) {
            TextBlock block = TextBlock.lay("I " + text + " you", STYLE, fonts, 1000, Alignment.START);
            assertThat(colouredPixels(block)).as("coloured pixels of %s", text).isZero();
            assertThat(block.unresolvedGlyphs()).isZero();
        }
    }

    /** Pixels of the block drawn black on white whose channels differ by more than 48: colour, not grey. */
    private static int colouredPixels(TextBlock block) {
        int width = (int) Math.ceil(block.width());
        int height = (int) Math.ceil(block.height());
        byte[] pixels;
        try (Bitmap bitmap = new Bitmap()) {
            ImageInfo info = new ImageInfo(width, height, ColorType.RGBA_8888, ColorAlphaType.PREMUL);
            assertThat(bitmap.allocPixels(info)).isTrue();
            try (Canvas canvas = new Canvas(bitmap, new SurfaceProps())) {
                canvas.clear(0xffffffff);
                block.paint(canvas, 0, 0);
            }
            pixels = bitmap.readPixels(info, width * 4, 0, 0);
        }
        int coloured = 0;
        for (int p = 0; p < pixels.length; p += 4) {
            int r = pixels[p] & 0xff;
            int g = pixels[p + 1] & 0xff;
            int b = pixels[p + 2] & 0xff;
            if (Math.max(r, Math.max(g, b)) - Math.min(r, Math.min(g, b)) > 48) {
                coloured++;
            }
        }
        return coloured;
    }

    @Test
    void anIsolatedRightToLeftNameLeavesItsSentenceLeftToRight() {
        FontChain fonts = FontChain.of(Map.of("sans", DEJAVU));
        // left to right, the name (the first word read) is left of "yours" (the last); right to left, the name's
        // first letter turns the whole paragraph and the name is at the right end, unless it is isolated
        TextBlock isolated = TextBlock.lay("\u2068محمد\u2069, this one is yours", STYLE, fonts, 1000, Alignment.START);
        TextBlock bare = TextBlock.lay("محمد, this one is yours", STYLE, fonts, 1000, Alignment.START);

        assertThat(isolated.unresolvedGlyphs()).as("the isolates draw nothing").isZero();
        var words = isolated.units(io.pmedia.graphics.motion.TextAnimation.Unit.WORD);
        assertThat(words.get(0).get(0).getLeft()).as("left to right")
                .isLessThan(words.get(words.size() - 1).get(0).getLeft());
        var bareWords = bare.units(io.pmedia.graphics.motion.TextAnimation.Unit.WORD);
        assertThat(bareWords.get(0).get(0).getLeft()).as("right to left, from the name's first letter")
                .isGreaterThan(bareWords.get(bareWords.size() - 1).get(0).getLeft());
        assertThat(isolated.width()).isCloseTo(bare.width(), org.assertj.core.api.Assertions.within(2.0));
    }

    @Test
    void aLongNameShrinksThenBreaksAndEndsWithAnEllipsis() {
        FontChain fonts = FontChain.of(Map.of("sans", DEJAVU));
        String name = "Bartholomew-Maximilian Featherstonehaugh-Wolfeschlegelsteinhausenbergerdorff the Third of"
                + " that Name and many more words that cannot fit";

        TextBlock block = TextBlock.lay(name, STYLE, fonts, 400, Alignment.CENTER);

        assertThat(block.size()).isEqualTo(28);
        assertThat(block.lines()).isEqualTo(2);
        assertThat(block.ellipsized()).isTrue();
        assertThat(block.width()).isLessThanOrEqualTo(400);
    }

    @Test
    void aNameThatFitsAtASmallerSizeIsSetSmallerNotBroken() {
        FontChain fonts = FontChain.of(Map.of("sans", DEJAVU));

        TextBlock block = TextBlock.lay("Wolfeschlegelstein", STYLE, fonts, 400, Alignment.CENTER);

        assertThat(block.size()).as("size, at %s lines %s wide", block.lines(), block.width()).isLessThan(48)
                .isGreaterThanOrEqualTo(28);
        assertThat(block.lines()).as("lines at %s px, %s wide", block.size(), block.width()).isEqualTo(1);
        assertThat(block.ellipsized()).isFalse();
    }

    @Test
    void controlCharactersDoNotLeaveTheBox() {
        FontChain fonts = FontChain.of(Map.of("sans", DEJAVU));

        TextBlock block = TextBlock.lay("Ada\u0000\u0007\t\r\u001b[31mLovelace\u202e", STYLE, fonts, 400,
                Alignment.LEFT);

        assertThat(block.width()).isLessThanOrEqualTo(400);
        assertThat(block.lines()).isLessThanOrEqualTo(2);
        assertThat(block.unresolvedGlyphs()).isZero();
    }
}
