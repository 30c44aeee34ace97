package io.pmedia.media.render.graph;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import io.pmedia.media.template.OutputFormat;
import io.pmedia.media.template.ResolvedVideo;

/**
 * How many frames a piece of an output holds and what its cache key says about it: a piece's key must tell apart
 * two pieces of the same static run whose frames differ because of where the run sits in the video.
 */
class OutputEncodingTest {

    static final ResolvedVideo.Output MAIN = ResolvedVideo.Output.main();
    static final ResolvedVideo.Output AT_24 = new ResolvedVideo.Output("small", OutputFormat.MP4, 180, 24, 0);
    static final ResolvedVideo.Output TEASER = new ResolvedVideo.Output("teaser", OutputFormat.MP4, 0, 0, 4);

    @Test
    void aPieceOfTheCanvasAsItIsKeepsTheKeyItAlwaysHad() {
        assertThat(OutputEncoding.pieceShape(MAIN, 360, 30, 255, 60, 120)).isEqualTo(OutputEncoding.pieceEncoding(30));
        assertThat(OutputEncoding.pieceShape(MAIN, 360, 30, 255, 240, 255)).isEqualTo(OutputEncoding.pieceEncoding(30));
        assertThat(OutputEncoding.pieceFrames(MAIN, 30, 255, 240, 255)).isEqualTo(15);
    }

    @Test
    void aResampledOutputHasItsSecondsWorthAndAtTheEndWhatTheFpsFilterMakes() {
        assertThat(OutputEncoding.pieceFrames(AT_24, 30, 300, 210, 240)).isEqualTo(24);
        // 8 s ending the video: 239 frames' time at 24 fps, 191.2, so 191 in all and 23 in its last second
        assertThat(OutputEncoding.pieceFrames(AT_24, 30, 240, 210, 240)).isEqualTo(23);
        assertThat(OutputEncoding.pieceFrames(AT_24, 30, 255, 240, 255)).isEqualTo(11);
        assertThat(OutputEncoding.pieceShape(AT_24, 360, 30, 300, 210, 240))
                .isEqualTo(OutputEncoding.pieceEncoding(24) + " height=180 fps=24");
        assertThat(OutputEncoding.pieceShape(AT_24, 360, 30, 240, 210, 240))
                .isEqualTo(OutputEncoding.pieceEncoding(24) + " height=180 fps=24 frames=23");
    }

    @Test
    void aTeasersPieceSaysWhereItsCutFallsInIt() {
        assertThat(OutputEncoding.pieceFrames(TEASER, 30, 300, 60, 120)).isEqualTo(60);
        assertThat(OutputEncoding.pieceFrames(TEASER, 30, 300, 90, 150)).isEqualTo(30);
        assertThat(OutputEncoding.pieceFrames(TEASER, 30, 300, 120, 180)).isZero();
        // the same static run after a longer or a shorter intro: other frames, another key
        assertThat(OutputEncoding.pieceShape(TEASER, 360, 30, 300, 60, 120))
                .isEqualTo(OutputEncoding.pieceEncoding(30));
        assertThat(OutputEncoding.pieceShape(TEASER, 360, 30, 300, 90, 150))
                .isEqualTo(OutputEncoding.pieceEncoding(30) + " frames=30");
        assertThat(OutputEncoding.resize(TEASER, 360, 30, 30)).containsExactly("trim=end_frame=30");
        assertThat(OutputEncoding.resize(AT_24, 360, 30, 23))
                .containsExactly("scale=-2:180:flags=bicubic,setsar=1", "fps=24", "trim=end_frame=23");
    }
}
