package io.pmedia.media.template;

import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * A video template as an operator registers it ({@code POST /admin/templates}): a canvas, the personalization
 * fields and asset slots it takes, and an ordered list of segments made of layers. The full format, with an
 * example, is docs/templates.md. Keys are dashed, like the interface document's own.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record TemplateDefinition(
        @JsonProperty("use-case-id") String useCaseId,
        String name,
        String description,
        Canvas canvas,
        List<Field> fields,
        AssetSlots assets,
        Audio audio,
        List<Segment> segments,
        @JsonProperty("earlier-form") EarlierForm earlierForm,
        @JsonProperty("allowed-clients") List<UUID> allowedClients) {

    public List<Field> fieldsOrEmpty() {
        return fields == null ? List.of() : fields;
    }

    public AssetSlots assetsOrEmpty() {
        return assets == null ? new AssetSlots(List.of(), List.of(), List.of()) : assets;
    }

    public List<String> requiredFields() {
        return fieldsOrEmpty().stream().filter(Field::isRequired).map(Field::name).toList();
    }

    public List<String> optionalFields() {
        return fieldsOrEmpty().stream().filter(field -> !field.isRequired()).map(Field::name).toList();
    }

    public double durationSeconds() {
        return segments == null ? 0 : segments.stream().mapToDouble(Segment::duration).sum();
    }

    /** Frame size, rate and the colour behind everything. */
    public record Canvas(int width, int height, int fps, String background) {
    }

    /** A personalization field: a key of {@code personalization_fields}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Field(String name, Boolean required, @JsonProperty("default") String defaultValue,
            @JsonProperty("max-length") Integer maxLength) {

        public boolean isRequired() {
            return Boolean.TRUE.equals(required);
        }

        public int maxLengthOrDefault() {
            return maxLength == null ? 80 : maxLength;
        }
    }

    /** The slots that {@code global_assets.images/videos/icons} fill by index. */
    public record AssetSlots(List<AssetSlot> images, List<AssetSlot> videos, List<AssetSlot> icons) {

        public List<AssetSlot> of(AssetKind kind) {
            List<AssetSlot> slots = switch (kind) {
                case IMAGE -> images;
                case VIDEO -> videos;
                case ICON -> icons;
            };
            return slots == null ? List.of() : slots;
        }
    }

    /** One asset slot; without a vendor URL, the default (if any) is used, else layers using it are left out. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record AssetSlot(String name, Boolean required, @JsonProperty("default") String defaultUrl) {

        public boolean isRequired() {
            return Boolean.TRUE.equals(required);
        }
    }

    /** The sound track: {@code silence} (default) or a quiet {@code tone}. Every output carries an audio stream. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Audio(String type, Double frequency, Double volume) {
    }

    /** A named stretch of the video. Variants replace its background and layers for users in a cohort. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Segment(String id, double duration, Background background, List<Layer> layers,
            List<Variant> variants) {

        public List<Layer> layersOrEmpty() {
            return layers == null ? List.of() : layers;
        }

        public List<Variant> variantsOrEmpty() {
            return variants == null ? List.of() : variants;
        }
    }

    /** Exactly one of: a colour, an image slot index, a video slot index. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Background(String color, Integer image, Integer video) {
    }

    /**
     * A text, image, icon or video on a segment. {@code x}/{@code y} are pixels or {@code center} (text: also
     * {@code left}/{@code right}, {@code top}/{@code bottom}); {@code start}/{@code end} are seconds into the
     * segment; {@code fade} is the fade-in and fade-out length.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Layer(String id, String type, String text, String font, Integer size, String color,
            @JsonProperty("box-color") String boxColor, JsonNode x, JsonNode y, Integer width, Integer height,
            String fit, Integer asset, Double start, Double end, Double fade) {
    }

    /** Replaces a segment's background and layers when the user belongs to {@code cohort}. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Variant(String cohort, Background background, List<Layer> layers) {
    }

    /**
     * How the earlier request form (interface 2.4) fills this template: {@code phrase-texts},
     * {@code image-texts} and {@code video-texts} name the fields their positions fill; {@code image-urls} and
     * {@code video-urls} always fill the image and video slots in order.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record EarlierForm(@JsonProperty("phrase-texts") List<String> phraseTexts,
            @JsonProperty("image-texts") List<String> imageTexts,
            @JsonProperty("video-texts") List<String> videoTexts) {
    }
}
