package io.pmedia.media.render.ffmpeg;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class FilterGraphTest {

    @Test
    void valuesAreEscapedForTheOptionParserThenForTheGraphParser() {
        assertThat(FilterGraph.value("/tmp/a:b")).isEqualTo("/tmp/a\\\\:b");
        assertThat(FilterGraph.value("it's")).isEqualTo("it\\\\\\'s");
        assertThat(FilterGraph.value("a\\b")).isEqualTo("a\\\\\\\\b");
        assertThat(FilterGraph.value("between(t,1,2)")).isEqualTo("between(t\\,1\\,2)");
        assertThat(FilterGraph.value("[x];y")).isEqualTo("\\[x\\]\\;y");
        assertThat(FilterGraph.value("plain-text_1.txt")).isEqualTo("plain-text_1.txt");
    }

    @Test
    void numbersAreWrittenWithoutExponentOrLocale() {
        assertThat(FilterGraph.number(3)).isEqualTo("3");
        assertThat(FilterGraph.number(3.25)).isEqualTo("3.25");
        assertThat(FilterGraph.number(1.0 / 3)).isEqualTo("0.333333");
        assertThat(FilterGraph.number(2.0 / 3)).isEqualTo("0.666667");
        assertThat(FilterGraph.number(1e-9)).isEqualTo("0");
        assertThat(FilterGraph.number(1e7)).isEqualTo("10000000");
        assertThat(FilterGraph.floor(2.0 / 3)).isEqualTo("0.666666");
        assertThat(FilterGraph.floor(105.0 / 30)).isEqualTo("3.5");
    }

    @Test
    void coloursBecomeFfmpegHex() {
        assertThat(FilterGraph.color("#1d3557")).isEqualTo("0x1d3557");
        assertThat(FilterGraph.color("#1D355799")).isEqualTo("0x1d355799");
        assertThatThrownBy(() -> FilterGraph.color("red;drawbox")).isInstanceOf(IllegalArgumentException.class);
    }
}
