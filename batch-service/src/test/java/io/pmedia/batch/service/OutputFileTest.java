package io.pmedia.batch.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.pmedia.batch.BatchRow;
import io.pmedia.batch.RowStatus;

/** The output file: one line per row, quoted only where CSV needs it, formulas neutralised (OWASP). */
class OutputFileTest {

    @TempDir
    Path dir;

    @Test
    void eachRowHasItsLineWithStatusAndMessageAndFormulasAreNeutralised() throws Exception {
        Path file = dir.resolve("output.csv");
        UUID task = UUID.randomUUID();
        try (OutputFile output = OutputFile.create(file)) {
            output.add(new BatchRow(task, 1, "u-1", null, RowStatus.SUCCESS, "k", "t", "video ready"),
                    "s3://pmedia/batch/c/t/1/video.mp4", "https://store/v?X-Amz-Signature=1", "https://store/i",
                    "https://pmedia.example/v/abc");
            output.add(new BatchRow(task, 2, "=1+2", null, RowStatus.FAILURE, null, null, "row 2: a, b \"c\""),
                    null, null, null, null);
            output.add(new BatchRow(task, 3, "\tx", null, RowStatus.CANCELLED, null, null,
                    "-not rendered"), null, null, null, null);
            output.add(new BatchRow(task, 4, " padded ", null, RowStatus.FAILURE, null, null, "+1"), null, null,
                    null, null);
        }
        assertThat(Files.readString(file, StandardCharsets.UTF_8)).isEqualTo(
                """
                        row,user-id,status,video-path,video-url,image-url,share-url,message\r
                        1,u-1,SUCCESS,s3://pmedia/batch/c/t/1/video.mp4,https://store/v?X-Amz-Signature=1,https://store/i,https://pmedia.example/v/abc,video ready\r
                        2,'=1+2,FAILURE,,,,,"row 2: a, b ""c\"""\r
                        3,'\tx,CANCELLED,,,,,'-not rendered\r
                        4, padded ,FAILURE,,,,,'+1\r
                        """);
    }
}
