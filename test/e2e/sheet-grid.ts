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
