/** Working the annotation sheet's grid as a person does. */
import type { Page } from '@playwright/test';

/** Pastes tab-separated text into the grid at the cursor, as Ctrl+V from Excel does. */
export async function pasteIntoGrid(page: Page, text: string): Promise<void> {
  await page.getByTestId('sheet-grid').evaluate((grid, t) => {
    const data = new DataTransfer();
    data.setData('text/plain', t);
    grid.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

/** Opens a new blank sheet on the Lane screen and pastes tab-separated rows from its first cell. */
export async function newSheetWith(page: Page, text: string): Promise<void> {
  await page.getByTestId('nav-annotation').click();
  await page.getByRole('button', { name: 'New blank sheet' }).click();
  await page.getByTestId('sheet-grid').focus();
  await pasteIntoGrid(page, text);
}
