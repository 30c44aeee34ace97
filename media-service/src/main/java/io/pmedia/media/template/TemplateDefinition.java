package io.pmedia.media.template;

import java.util.List;
import java.util.UUID;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * A video template exactly as an operator registers it: the body of {@code POST /admin/templates}. It names the
 * use case vendors send ({@code use-case-id}), the canvas, the personalization fields and asset slots it takes, an
 * optional sound track, and an ordered list of segments made of layers. The service adds {@code template-id} and
 * {@code version}; they are not part of the definition.
 * <p>
 * Keys are dashed ({@code use-case-id}, {@code max-width}), like the top level of the interface document and the
 * operator API. The format, with examples, is docs/templates.md; {@link TemplateValidator} states every rule.
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
        @JsonProperty("allowed-clients") List<UUID> allowedClients,
        List<Output> outputs,
        Captions captions,
        Cta cta,
        Branding branding,
        @JsonProperty("retention-days") Integer retentionDays) {

    /**
     * The share page's call to action (docs/sharing.md): a button {@code label} linking to {@code url}, both with
     * {@code {{field}}} placeholders filled from the request (in the URL, percent-encoded).
     */
    public record Cta(String label, String url) {
    }

    /** The share page's look: a logo (an http(s) image URL) and an accent colour; the vendor's settings otherwise. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Branding(@JsonProperty("logo-url") String logoUrl, String color) {
    }

    public List<Output> outputsOrEmpty() {
        return outputs == null ? List.of() : outputs;
    }

    public List<Field> fieldsOrEmpty() {
        return fields == null ? List.of() : fields;
    }

    public AssetSlots assetsOrEmpty() {
        return assets == null ? new AssetSlots(List.of(), List.of(), List.of()) : assets;
    }

    public List<Segment> segmentsOrEmpty() {
        return segments == null ? List.of() : segments;
    }

    /** Names of the fields a request must fill. */
    public List<String> requiredFields() {
        return fieldsOrEmpty().stream().filter(field -> field != null && field.requiredOrFalse()).map(Field::name)
                .toList();
    }

    /** Names of the fields a request may fill (they have a default, or their text is left out). */
    public List<String> optionalFields() {
        return fieldsOrEmpty().stream().filter(field -> field != null && !field.requiredOrFalse()).map(Field::name)
                .toList();
    }

    /** The length of the video as defined, before cohort variants and {@code frame_segments} change it. */
    public double durationSeconds() {
        return segmentsOrEmpty().stream().filter(segment -> segment != null).mapToDouble(Segment::seconds).sum();
    }

    /** Frame size in pixels, frame rate, and the colour behind everything ({@code #rrggbb}). */
    public record Canvas(int width, int height, int fps, String background) {
    }

    /**
     * A personalization field: a key of {@code personalization_fields}. Without a value, an optional field takes
     * its {@code default}; a text whose placeholders all end up empty is left out.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Field(String name, @JsonProperty("required") Boolean required,
            @JsonProperty("default") String defaultValue,
            @JsonProperty("max-length") Integer maxLength, String description) {

        public static final int DEFAULT_MAX_LENGTH = 100;

        public boolean requiredOrFalse() {
            return Boolean.TRUE.equals(required);
        }

        public int maxLengthOrDefault() {
            return maxLength == null ? DEFAULT_MAX_LENGTH : maxLength;
        }
    }

    /** The slots that {@code global_assets.images}, {@code videos} and {@code icons} fill by index. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record AssetSlots(List<AssetSlot> images, List<AssetSlot> videos, List<AssetSlot> icons) {

        public List<AssetSlot> of(AssetKind kind) {
            List<AssetSlot> slots = switch (kind) {
                case IMAGE -> images;
                case VIDEO -> videos;
                case ICON -> icons;
                case AUDIO -> null;
            };
            return slots == null ? List.of() : slots;
        }
    }

    /**
     * One asset slot. Without a vendor URL the {@code default} URL (if any) is used; a slot with neither leaves out
     * the layers that show it, and a background that shows it falls back to its colour.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record AssetSlot(String name, @JsonProperty("required") Boolean required,
            @JsonProperty("default") String defaultUrl) {

        public boolean requiredOrFalse() {
            return Boolean.TRUE.equals(required);
        }
    }

    /**
     * The sound track. {@code silence} (the default: every output still carries an AAC stream), a sine
     * {@code tone}, or a {@code track} fetched from {@code url} (cut to the video's length, padded with silence when
     * shorter, faded out over {@code fade-out} seconds).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Audio(String type, Double frequency, Double volume, String url,
            @JsonProperty("fade-in") Double fadeIn, @JsonProperty("fade-out") Double fadeOut, Double duck) {
    }

    /**
     * One file the render produces ({@code outputs}; without it one MP4 at the canvas size). {@code format} is
     * {@code mp4}, {@code webm} or {@code gif}; {@code height} scales the canvas down (the width follows, even);
     * {@code fps} lowers the frame rate; {@code duration} cuts the file to its first seconds. The first output is
     * the request's {@code video-url} and must be an MP4.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Output(String name, String format, Integer height, Integer fps, Double duration) {
    }

    /**
     * Captions: a WebVTT file is always made for speech layers; {@code burn-in} also draws them on the picture,
     * {@code text-layers} adds the text layers' texts as cues.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Captions(@JsonProperty("burn-in") Boolean burnIn, @JsonProperty("text-layers") Boolean textLayers) {
    }

    /** How a segment passes into the next: an FFmpeg xfade {@code type} over {@code duration} seconds. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Transition(String type, Double duration) {
    }

    /**
     * A named stretch of the video, {@code duration} seconds long, or {@code "speech"}: as long as its longest speech
     * layer (its start plus the spoken length) and a short pause. {@code cohorts}, when given, shows the segment only to users in one of them;
     * {@code variants} replace parts of it for users in a cohort (the first matching variant wins). The segment
     * fades in from and out to black over {@code fade-in} / {@code fade-out} seconds ({@code fade} sets both).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Segment(String id, JsonNode duration, Background background, Double fade,
            @JsonProperty("fade-in") Double fadeIn, @JsonProperty("fade-out") Double fadeOut, List<Layer> layers,
            List<Variant> variants, List<String> cohorts, Transition transition) {

        /** The word that makes a segment last as long as its speech. */
        public static final String SPEECH = "speech";

        public List<Layer> layersOrEmpty() {
            return layers == null ? List.of() : layers;
        }

        /** Whether the segment lasts as long as its speech ({@code "duration": "speech"}). */
        public boolean speechTimed() {
            return duration != null && duration.isTextual() && SPEECH.equals(duration.asText());
        }

        /** The duration in seconds as written; 0 when it is not a number (speech-timed, missing, wrong). */
        public double seconds() {
            return duration != null && duration.isNumber() ? duration.asDouble() : 0;
        }

        public List<Variant> variantsOrEmpty() {
            return variants == null ? List.of() : variants;
        }
    }

    /**
     * What fills the frame behind the layers: an image or video slot (by index), covering the canvas, a linear or
     * radial {@code gradient} (a shape's gradient fill over the whole canvas, drawn by the graphics engine), or a
     * colour. With a slot, {@code color} is the fallback when the slot is empty; without any, the canvas background.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Background(String color, Integer image, Integer video, JsonNode gradient) {
    }

    /**
     * A layer of a segment: {@code text}, or an {@code image}, {@code icon} or {@code video} from an asset slot.
     * <ul>
     * <li>Text: {@code text} with {@code {{field}}} placeholders, a named {@code font}, {@code size} in pixels,
     * {@code color}, optional {@code box-color} and {@code shadow-color}. {@code x} is pixels or
     * {@code left}/{@code center}/{@code right}; {@code y} is the top of the text block in pixels or
     * {@code top}/{@code center}/{@code bottom}; {@code align} says which point of each line sits at {@code x}. Text
     * wider than {@code max-width} wraps into at most {@code max-lines} lines, shrinking down to {@code min-size}.</li>
     * <li>Pictures: {@code asset} is the slot index; the picture is fitted into the box {@code x}, {@code y},
     * {@code width}, {@code height} ({@code fit}: {@code contain}, {@code cover} or {@code stretch}).</li>
     * <li>Images and icons: {@code motion} moves the picture in its box: {@code zoom-in}, {@code zoom-out},
     * {@code pan-left}, {@code pan-right}; or {@code keyframes} move it as any drawn layer (not both).</li>
     * <li>Speech: {@code text} with placeholders, spoken with {@code voice} (an espeak-ng voice such as {@code en}
     * or {@code en-us}) at {@code rate} words per minute, from {@code start}, cut at {@code end}.</li>
     * <li>Lottie: {@code motion} names a registered Lottie file, fitted ({@code fit}) into the box {@code x},
     * {@code y}, {@code width}, {@code height}, played at {@code speed}, looped or holding its last frame
     * ({@code loop}); {@code text} (an object) fills its text layers or text slots by name, {@code colors} its colour
     * slots, {@code images} its image assets from image slots (docs/templates.md "Lottie").</li>
     * <li>All: shown from {@code start} to {@code end} seconds into the segment, fading in and out over
     * {@code fade-in} / {@code fade-out} seconds ({@code fade} sets both).</li>
     * </ul>
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Layer(String id, String type, @JsonProperty("text") JsonNode textValue, String font, Integer size,
            String color,
            @JsonProperty("box-color") String boxColor, @JsonProperty("shadow-color") String shadowColor,
            JsonNode x, JsonNode y, String align, @JsonProperty("max-width") Integer maxWidth,
            @JsonProperty("max-lines") Integer maxLines, @JsonProperty("min-size") Integer minSize,
            @JsonProperty("line-height") Double lineHeight, Integer width, Integer height, String fit, Integer asset,
            Double start, Double end, Double fade, @JsonProperty("fade-in") Double fadeIn,
            @JsonProperty("fade-out") Double fadeOut, String motion, String voice, Integer rate, JsonNode animate,
            JsonNode keyframes, String shape, String path, Double radius, JsonNode fill, JsonNode stroke,
            JsonNode shadow, @JsonProperty("box-fill") JsonNode boxFill, JsonNode images, JsonNode colors,
            Double speed, Boolean loop) {

        /**
         * The text of a text or speech layer (a number or boolean as its text); null when absent or not a value
         * (a lottie layer's {@code text} is an object of texts by layer name or slot, {@link #textValue()}).
         */
        public String text() {
            return textValue == null || !textValue.isValueNode() || textValue.isNull() ? null : textValue.asText();
        }

        /** The type of layer; null for a missing or unknown type (the validator reports it). */
        public LayerType layerType() {
            return LayerType.ofWire(type);
        }

        /** The kind of asset a picture layer shows; null for text and unknown types. */
        public AssetKind assetKind() {
            LayerType layerType = layerType();
            return layerType == null ? null : layerType.assetKind();
        }
    }

    /**
     * A rule: users in any of {@code cohorts} see this instead. Each given part replaces the segment's own:
     * {@code skip} leaves the segment out, {@code duration}, {@code background} and {@code layers} (the whole list)
     * replace it.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Variant(List<String> cohorts, Boolean skip, Double duration, Background background,
            List<Layer> layers) {
    }

    /**
     * How the earlier request form (interface 2.4, {@code POST /video/demo}) fills this template, position by
     * position. {@code phrase-texts}, {@code image-texts} and {@code video-texts} list field names;
     * {@code image-urls} and {@code video-urls} list slots such as {@code images[0]} or {@code icons[1]}. Without a
     * list, {@code phrase-texts} fill the fields in declaration order, {@code image-urls} the image slots and
     * {@code video-urls} the video slots in order, and the other texts are not taken.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record EarlierForm(@JsonProperty("phrase-texts") List<String> phraseTexts,
            @JsonProperty("image-texts") List<String> imageTexts,
            @JsonProperty("video-texts") List<String> videoTexts,
            @JsonProperty("image-urls") List<String> imageUrls,
            @JsonProperty("video-urls") List<String> videoUrls) {
    }
}
