/* Devices: reference counting and accessors. */
#include <stdlib.h>
#include <string.h>

#include "private.h"

PRESSURED_EXPORT struct pressured_device *pressured_device_ref(struct pressured_device *d)
{
	if (d)
		d->refcount++;
	return d;
}

PRESSURED_EXPORT struct pressured_device *pressured_device_unref(struct pressured_device *d)
{
	if (!d || --d->refcount > 0)
		return NULL;
	json_object_put(d->json);
	free(d);
	return NULL;
}

PRESSURED_EXPORT int64_t pressured_device_get_id(struct pressured_device *d)
{
	return d ? d->id : 0;
}

PRESSURED_EXPORT const char *pressured_device_get_name(struct pressured_device *d)
{
	return d ? d->name : NULL;
}

PRESSURED_EXPORT const char *pressured_device_get_node(struct pressured_device *d)
{
	return d ? d->node : NULL;
}

PRESSURED_EXPORT enum pressured_device_kind pressured_device_get_kind(struct pressured_device *d)
{
	return d ? d->kind : PRESSURED_DEVICE_KIND_UNKNOWN;
}

PRESSURED_EXPORT const char *pressured_device_get_kind_name(struct pressured_device *d)
{
	return d ? d->kind_name : NULL;
}

PRESSURED_EXPORT bool pressured_device_has_force(struct pressured_device *d)
{
	return d && d->force_capability && strcmp(d->force_capability, "available") == 0;
}

PRESSURED_EXPORT const char *pressured_device_get_force_capability(struct pressured_device *d)
{
	return d ? d->force_capability : NULL;
}

PRESSURED_EXPORT const char *pressured_device_get_force_unavailable(struct pressured_device *d)
{
	return d ? d->force_unavailable : NULL;
}

PRESSURED_EXPORT double pressured_device_get_maximum_possible_force(struct pressured_device *d)
{
	return d ? d->maximum_possible_force : 0;
}

PRESSURED_EXPORT bool pressured_device_get_size_mm(struct pressured_device *d, double *width, double *height)
{
	bool has = d && d->has_size;
	if (width)
		*width = has ? d->width_mm : 0;
	if (height)
		*height = has ? d->height_mm : 0;
	return has;
}

PRESSURED_EXPORT void pressured_device_get_x_range(struct pressured_device *d, int64_t *min, int64_t *max)
{
	if (min)
		*min = d ? d->x_min : 0;
	if (max)
		*max = d ? d->x_max : 0;
}

PRESSURED_EXPORT void pressured_device_get_y_range(struct pressured_device *d, int64_t *min, int64_t *max)
{
	if (min)
		*min = d ? d->y_min : 0;
	if (max)
		*max = d ? d->y_max : 0;
}

PRESSURED_EXPORT void pressured_device_get_screen(struct pressured_device *d, double *width, double *height,
						  int *rotation, double matrix[6])
{
	static const double identity[6] = {1, 0, 0, 0, 1, 0};
	if (width)
		*width = d ? d->screen_width : 0;
	if (height)
		*height = d ? d->screen_height : 0;
	if (rotation)
		*rotation = d ? d->rotation : 0;
	if (matrix)
		memcpy(matrix, d ? d->matrix : identity, sizeof(identity));
}

PRESSURED_EXPORT size_t pressured_device_get_assumed_count(struct pressured_device *d)
{
	return d && d->assumed ? json_object_array_length(d->assumed) : 0;
}

PRESSURED_EXPORT const char *pressured_device_get_assumed(struct pressured_device *d, size_t index)
{
	if (!d || !d->assumed || index >= json_object_array_length(d->assumed))
		return NULL;
	json_object *v = json_object_array_get_idx(d->assumed, index);
	return json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
}
