package io.pmedia.media.render;

import static org.assertj.core.api.Assertions.assertThat;

import java.awt.Font;

import org.junit.jupiter.api.Test;

import io.pmedia.media.template.TextFont;

class TextLayoutTest {

    static final Font SANS = new Fonts(Fonts.DEFAULT_DIRECTORY).awt(TextFont.SANS_BOLD);

    static void allFit(TextLayout.Laid laid, int maxWidth) {
        for (String line : laid.lines()) {
            assertThat(TextLayout.width(line, SANS.deriveFont((float) laid.size())) * TextLayout.SAFETY)
                    .isLessThanOrEqualTo(maxWidth);
        }
    }

    @Test
    void aShortTextStaysOneLineAtItsSize() {
        TextLayout.Laid laid = TextLayout.fit("Hello Ada!", SANS, 84, 50, 1100, 2);

        assertThat(laid.lines()).containsExactly("Hello Ada!");
        assertThat(laid.size()).isEqualTo(84);
        assertThat(laid.ascent()).isBetween(70, 84);
        assertThat(laid.descent()).isBetween(10, 30);
    }

    @Test
    void aLongerTextWrapsAtWordsBeforeItShrinks() {
        TextLayout.Laid laid = TextLayout.fit("Hello Bartholomew Alexander Fitzgerald!", SANS, 84, 50, 1100, 2);

        assertThat(laid.size()).isEqualTo(84);
        assertThat(laid.lines()).containsExactly("Hello Bartholomew", "Alexander Fitzgerald!");
        allFit(laid, 1100);
    }

    @Test
    void wrappedLinesAreBalanced() {
        TextLayout.Laid laid = TextLayout.fit("See you soon, Ada Lovelace", SANS, 60, 36, 660, 3);

        assertThat(laid.lines()).containsExactly("See you soon,", "Ada Lovelace");
        assertThat(laid.size()).isEqualTo(60);
    }

    @Test
    void aTextTooLongForItsLinesShrinksUntilItFits() {
        TextLayout.Laid laid = TextLayout.fit("See you soon, Maximilian Alexander von Hohenzollern-Sigmaringen",
                SANS, 60, 36, 600, 3);

        assertThat(laid.size()).isLessThan(60).isGreaterThanOrEqualTo(36);
        assertThat(laid.lines()).hasSizeLessThanOrEqualTo(3);
        assertThat(String.join(" ", laid.lines()))
                .isEqualTo("See you soon, Maximilian Alexander von Hohenzollern-Sigmaringen");
        allFit(laid, 600);
    }

    @Test
    void atTheSmallestSizeLongWordsBreakAndTheLastLineEndsWithAnEllipsis() {
        TextLayout.Laid laid = TextLayout.fit("Supercalifragilisticexpialidocious ".repeat(6).strip(), SANS, 40, 30,
                300, 2);

        assertThat(laid.size()).isEqualTo(30);
        assertThat(laid.lines()).hasSize(2);
        assertThat(laid.lines().get(1)).endsWith(TextLayout.ELLIPSIS);
        allFit(laid, 300);
    }

    @Test
    void lineBreaksOfTheTextAreKept() {
        TextLayout.Laid laid = TextLayout.fit("Dear Ada,\n\nthank you", SANS, 40, 20, 1000, 3);

        assertThat(laid.lines()).containsExactly("Dear Ada,", "", "thank you");
    }

    @Test
    void theLayoutIsDeterministic() {
        String text = "A name that is long enough to need some thought about where it breaks";
        assertThat(TextLayout.fit(text, SANS, 64, 30, 700, 2)).isEqualTo(TextLayout.fit(text, SANS, 64, 30, 700, 2));
    }
}
