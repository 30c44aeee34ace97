package io.pmedia.batch;

import java.util.UUID;

/**
 * One row of a task's input file as stored: its number in the file (1 = the first data row), the user, the render
 * input (JSON of {@code io.pmedia.events.RenderInput}), and its outcome so far.
 */
public record BatchRow(UUID taskId, int rowNo, String userId, String input, RowStatus status, String videoKey,
        String thumbnailKey, String message) {
}
