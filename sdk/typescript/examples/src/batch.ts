// A batch of three rows: the file uploaded, the task created and waited for, the output file read.
import { PmediaClient, type TaskStatus } from '@pmedia/client';
import { env, isMain } from './env.js';

export const ROWS = 'user-id,name,offer\nu-1,Ada,20% off\nu-2,"Grace, again",\nu-3,Linus,free shipping\n';

export async function batchOfThree(pmedia: PmediaClient, templateId: string,
    onProgress: (status: TaskStatus) => void): Promise<TaskStatus> {
    const filePath = await pmedia.uploadBatchFile(new Blob([ROWS], { type: 'text/csv' }), 'customers.csv');
    const task = await pmedia.createTask({
        campaignId: 'spring-sale',
        templateId,
        filePath,
        rowCount: 3,
        expectedOutputDuration: 30,
    });
    return pmedia.waitForTask(task.taskId, { onProgress });
}

if (isMain(import.meta.url)) {
    const pmedia = new PmediaClient({
        baseUrl: env('PMEDIA_GATEWAY_URL'),
        clientId: env('PMEDIA_DEMO_CLIENT_ID'),
        clientSecret: env('PMEDIA_DEMO_CLIENT_SECRET'),
    });
    const done = await batchOfThree(pmedia, env('PMEDIA_DEMO_TEMPLATE_ID'),
        (status) => console.log(`${status.status}: ${status.processed} of ${status.totalCount}`));
    process.stdout.write(await pmedia.readOutput(done));
}
