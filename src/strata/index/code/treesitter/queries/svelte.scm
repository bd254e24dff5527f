; Svelte single-file components: the tags of their <script> elements (see tagquery).
; embeds: script
