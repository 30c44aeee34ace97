package io.pmedia.client;

import io.pmedia.client.model.TaskStatus;

/** A batch task that ended {@code FAILED}; its status (with the output file, when one was written) is attached. */
public class TaskFailedException extends PmediaException {

    private static final long serialVersionUID = 1L;

    private final transient TaskStatus status;

    public TaskFailedException(TaskStatus status) {
        super("task " + status.getTaskId() + " FAILED: " + status.getMessage());
        this.status = status;
    }

    public TaskStatus getStatus() {
        return status;
    }
}
