// The page as the signer sees it, from the boxes written in the file. docs/api.md#field-areas
// places field areas from the top-left of the visible page, so a crop or a /Rotate changes which
// areas fit.

/** A PDF rectangle as written in a file: [llx lly urx ury] in points (corners in any order). */
export type Rect = readonly [number, number, number, number]

export type Rotation = 0 | 90 | 180 | 270

export interface PageBox {
  /** The visible region in default user space, normalized so x1 < x2 and y1 < y2. */
  box: Rect
  rotation: Rotation
  /** Visible size in points after rotation: what the signer sees as width and height. */
  width: number
  height: number
}

/**
 * /Rotate must be a multiple of 90 (ISO 32000-1 §7.7.3.3); -90 and 450 are common and mean 270
 * and 90. Other values are ignored as pdf.js does, so the page is shown unrotated.
 */
export function normalizeRotation(rotate: number | undefined): Rotation {
  if (rotate === undefined || !Number.isFinite(rotate) || rotate % 90 !== 0) return 0
  return (((rotate % 360) + 360) % 360) as Rotation
}

function normalize([a, b, c, d]: Rect): Rect {
  return [Math.min(a, c), Math.min(b, d), Math.max(a, c), Math.max(b, d)]
}

/**
 * The CropBox clipped to the MediaBox: ISO 32000-1 §14.11.2 reduces a box reaching beyond the
 * media box to their intersection. Without a CropBox, or when the intersection is empty, viewers
 * (pdf.js) show the whole MediaBox, so we do too.
 */
export function visibleBox(mediaBox: Rect, cropBox?: Rect): Rect {
  const media = normalize(mediaBox)
  if (!cropBox) return media
  const crop = normalize(cropBox)
  const clipped: Rect = [
    Math.max(media[0], crop[0]),
    Math.max(media[1], crop[1]),
    Math.min(media[2], crop[2]),
    Math.min(media[3], crop[3]),
  ]
  return clipped[2] > clipped[0] && clipped[3] > clipped[1] ? clipped : media
}

export function pageBox(mediaBox: Rect, cropBox?: Rect, rotate?: number): PageBox {
  const box = visibleBox(mediaBox, cropBox)
  const rotation = normalizeRotation(rotate)
  const [boxWidth, boxHeight] = [box[2] - box[0], box[3] - box[1]]
  const quarterTurn = rotation === 90 || rotation === 270
  return {
    box,
    rotation,
    width: quarterTurn ? boxHeight : boxWidth,
    height: quarterTurn ? boxWidth : boxHeight,
  }
}
