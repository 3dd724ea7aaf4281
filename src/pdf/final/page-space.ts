// Drawing on a page as the signer sees it. Field areas are fractions of the visible page after
// crop and rotation, origin top-left (docs/api.md#field-areas, documents/placement.ts); pdf-lib
// draws in the page's user space, where a /Rotate page shows its content turned and a CropBox shows
// part of it. We draw in a "view" space instead: origin at the bottom-left of the page as
// displayed, x right, y up, in points, mapped onto user space by one matrix, so every value stands
// upright.
import { concatTransformationMatrix, type PDFPage, popGraphicsState, pushGraphicsState } from 'pdf-lib'
import { type PageBox, pageBox, type Rect } from '../read/page-box.ts'

/** A rectangle in view space: lower-left corner, width and height. */
export interface ViewRect {
  x: number
  y: number
  width: number
  height: number
}

/** An area as stored: fractions of the visible page, origin top-left, y downward. */
export interface FractionArea {
  x: number
  y: number
  w: number
  h: number
}

export type Matrix = [number, number, number, number, number, number]

function toRect({ x, y, width, height }: { x: number; y: number; width: number; height: number }): Rect {
  return [x, y, x + width, y + height]
}

/** The page's visible box and rotation, read through pdf-lib (which resolves inherited entries). */
export function visiblePage(page: PDFPage): PageBox {
  const cropBox = page.node.CropBox()
  return pageBox(
    toRect(page.getMediaBox()),
    cropBox ? toRect(cropBox.asRectangle()) : undefined,
    page.getRotation().angle,
  )
}

/**
 * The matrix [a b c d e f] taking view space to user space. /Rotate turns the page clockwise for
 * display (ISO 32000-1 §7.7.3.3, Table 30): at 90 the bottom-left of the visible box is shown
 * top-left, so view x runs up user y and view y runs left along user x.
 */
export function viewMatrix({ box: [x0, y0, x1, y1], rotation }: PageBox): Matrix {
  switch (rotation) {
    case 0:
      return [1, 0, 0, 1, x0, y0]
    case 90:
      return [0, 1, -1, 0, x1, y0]
    case 180:
      return [-1, 0, 0, -1, x1, y1]
    case 270:
      return [0, -1, 1, 0, x0, y1]
  }
}

/** A stored area in view space (y flipped to point up). */
export function areaInView(area: FractionArea, view: PageBox): ViewRect {
  return {
    x: area.x * view.width,
    y: (1 - area.y - area.h) * view.height,
    width: area.w * view.width,
    height: area.h * view.height,
  }
}

/**
 * Runs `draw`, whose pdf-lib calls on `page` then take view coordinates. The page's existing
 * content is wrapped in q/Q by pdf-lib before anything is appended, so a matrix it leaves behind
 * cannot shift what we draw.
 */
export function drawInView(page: PDFPage, view: PageBox, draw: () => void): void {
  page.pushOperators(pushGraphicsState(), concatTransformationMatrix(...viewMatrix(view)))
  draw()
  page.pushOperators(popGraphicsState())
}
