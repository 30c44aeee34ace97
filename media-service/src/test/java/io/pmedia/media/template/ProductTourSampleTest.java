package io.pmedia.media.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.UUID;

import org.junit.jupiter.api.Test;

/**
 * The sample template {@code product-tour} (deploy/local/templates/product-tour.json) as {@code ./pmedia up}
 * registers it, its placeholders filled in (scripts/lib/samples.sh): valid, 30 s at 1280x720 over its background
 * clip and soundtrack, the name on screen from 2 s to 5 s and the offer from 20 s to 23 s.
 */
class ProductTourSampleTest {

    static final UUID DEMO = UUID.randomUUID();
    static final String ASSETS = "http://127.0.0.1:9000/pmedia/inputs/" + DEMO + "/samples";

    /** The file with its placeholders filled in, as registration sends it. */
    static TemplateDefinition registered() throws IOException {
        String file = Files.readString(Templates.sampleFile("product-tour"));
        assertThat(file).contains("@PMEDIA_DEMO_CLIENT_ID@", "@PMEDIA_SAMPLE_ASSETS@");
        return Templates.parse(file.replace("@PMEDIA_DEMO_CLIENT_ID@", DEMO.toString())
                .replace("@PMEDIA_SAMPLE_ASSETS@", ASSETS));
    }

    @Test
    void itIsValidAndTheDemoVendorsOnly() throws IOException {
        TemplateDefinition template = registered();

        assertThat(TemplateValidator.validate(template)).isEmpty();
        assertThat(template.allowedClients()).containsExactly(DEMO);
    }

    @Test
    void theNameShowsFromTwoToFiveSecondsAndTheOfferFromTwentyToTwentyThreeOverTheClip() throws IOException {
        ResolvedVideo video = Templates.resolve(registered(), """
                {"personalization_fields": {"name": "Asha Menon", "offer": "20% off your first order"}}""");

        assertThat(video.durationSeconds()).isCloseTo(30.0, within(0.01));
        assertThat(List.of(video.canvas().width(), video.canvas().height())).containsExactly(1280, 720);
        assertThat(video.segments()).hasSize(1);
        ResolvedVideo.Segment tour = video.segments().get(0);
        assertThat(tour.background().url()).isEqualTo(ASSETS + "/product-tour/background.mp4");
        assertThat(tour.background().kind()).isEqualTo(AssetKind.VIDEO);
        assertThat(video.audio().type()).isEqualTo(AudioType.TRACK);
        assertThat(video.audio().url()).isEqualTo(ASSETS + "/product-tour/soundtrack.m4a");

        List<ResolvedVideo.Text> texts = tour.layers().stream().filter(ResolvedVideo.Text.class::isInstance)
                .map(ResolvedVideo.Text.class::cast).toList();
        assertThat(texts).hasSize(2);
        assertThat(texts.get(0).text()).isEqualTo("Welcome, Asha Menon");
        assertThat(List.of(texts.get(0).start(), texts.get(0).end())).containsExactly(2.0, 5.0);
        assertThat(texts.get(1).text()).isEqualTo("20% off your first order");
        assertThat(List.of(texts.get(1).start(), texts.get(1).end())).containsExactly(20.0, 23.0);
    }
}
